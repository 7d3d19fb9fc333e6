//! Which transaction a two-phase-commit sink's lane names in its badge: the one
//! whose status changed last — unless a commit just failed. KafkaSink commits
//! every pre-committed transaction when a checkpoint completes; when the broker
//! had already aborted one for `transaction.timeout.ms` its commit fails and its
//! records are lost, in the same instant as the next one commits. The loss is
//! the lesson: the lane names the lost transaction (aborted) until another of
//! its transactions changes after that instant.

use engine::view::{TxnStatus, TxnView};

/// The badge's `(transaction, status)` among a lane's `txns` (open ones are
/// not shown).
pub fn lane_badge<'a>(txns: impl Iterator<Item = &'a TxnView>) -> Option<(u64, TxnStatus)> {
    let shown: Vec<&TxnView> = txns.filter(|x| x.status != TxnStatus::Open).collect();
    // The latest change, not the highest id: a restore aborts the pre-committed
    // transaction after the open one was aborted.
    let latest = shown.iter().max_by_key(|x| (x.changed, x.id));
    let lost = shown
        .iter()
        .filter_map(|x| x.lost_at.map(|at| (at, x)))
        .max_by_key(|(at, x)| (*at, x.id));
    match (latest, lost) {
        (Some(l), Some((at, x))) if l.changed_at.is_none_or(|c| c <= at) => Some((x.id, x.status)),
        (l, _) => l.map(|x| (x.id, x.status)),
    }
}

#[cfg(test)]
mod tests {
    use crate::scene::scene;
    use engine::runner::load;
    use engine::view::TxnStatus;
    use engine::World;

    /// The sink lane's badge at `t` ms of `name`.
    fn badge_at(name: &str, t: u64) -> Option<(u64, TxnStatus)> {
        let s = load(name).unwrap();
        let mut w = World::new(&s, s.seed).unwrap();
        while w.next_at().is_some_and(|at| at <= t) {
            w.step().expect("a step");
        }
        let (job, view) = (w.job_view(), w.view());
        let sc = scene(&job, &view, t as f64);
        let lane = sc
            .lanes
            .iter()
            .find(|l| l.boxed.name == "kafka-out#0")
            .expect("the Kafka sink's lane");
        lane.txn
    }

    /// kafka-transaction-timeout: the broker aborts T3 at 1812 ms; at 2135 ms
    /// checkpoint 4 completes, T3's commit fails (its records lost) and T4
    /// commits. The lane names T3 aborted then, not ✓T4 as if nothing were
    /// lost, and T5 once it is pre-committed at 2510 ms.
    #[test]
    fn a_lost_transaction_is_named_on_its_lane_when_its_commit_fails() {
        assert_eq!(
            badge_at("kafka-transaction-timeout", 1812),
            Some((3, TxnStatus::Aborted))
        );
        assert_eq!(
            badge_at("kafka-transaction-timeout", 2135),
            Some((3, TxnStatus::Aborted))
        );
        assert_eq!(
            badge_at("kafka-transaction-timeout", 2300),
            Some((3, TxnStatus::Aborted))
        );
        assert_eq!(
            badge_at("kafka-transaction-timeout", 2510),
            Some((5, TxnStatus::Precommitted))
        );
        // With a long enough timeout nothing is lost: T4 commits with T3.
        assert_eq!(
            badge_at("kafka-transaction-timeout-long", 2135),
            Some((4, TxnStatus::Committed))
        );
    }
}
