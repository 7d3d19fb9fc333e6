//! Which flow chips ([`super::flow`]) may still travel: a chip stands for a
//! subtask's values on their way to or from one checkpoint, so it leaves the
//! stage when its subject is gone — the subtask failed or was canceled, the job
//! is failing over, failed or was canceled — or superseded: the stage draws one
//! checkpoint store (`chk-n`, the newest a chip travels to or from), and a chip
//! of an older checkpoint would carry values the store beside it does not hold.

use engine::view::WorldView;
use engine::{JobStatus, TaskStatus};

/// Whether values of subtask `task` still have a subject in `view`.
fn has_subject(task: usize, view: &WorldView) -> bool {
    let job_on = !matches!(
        view.status,
        JobStatus::Restarting | JobStatus::Failed | JobStatus::Canceled
    );
    let task_on = view
        .tasks
        .get(task)
        .is_some_and(|t| !matches!(t.status, TaskStatus::Failed | TaskStatus::Canceled));
    job_on && task_on
}

/// Keeps the chips of `view` that have a subject and belong to the newest
/// checkpoint among them; `of` reads a chip's subtask (lane index) and
/// checkpoint (the chips are [`super::flow`]'s, which calls this).
pub fn retain_current<C>(chips: &mut Vec<C>, view: &WorldView, of: impl Fn(&C) -> (usize, u64)) {
    chips.retain(|c| has_subject(of(c).0, view));
    if let Some(newest) = chips.iter().map(|c| of(c).1).max() {
        chips.retain(|c| of(c).1 == newest);
    }
}

#[cfg(test)]
mod tests {
    use crate::scene::{scene_fit, test_fit};
    use engine::runner::load;
    use engine::{JobStatus, TaskStatus, World};

    /// Every lesson, every step of its first 6 s: no chip of a failed or
    /// canceled subtask, none while the job fails over, failed or was canceled,
    /// and all of one checkpoint, the store's. Also counts the steps where the
    /// chips before this rule would have broken it.
    fn faults() -> (Vec<String>, usize) {
        let mut faults = Vec::new();
        let mut chipped = 0;
        for (name, _) in engine::runner::BUILTINS {
            let s = load(name).unwrap();
            let mut w = World::new(&s, s.seed).unwrap();
            while w.step().is_some() && w.now() < 6_000 {
                let view = w.view();
                let travelling = view
                    .tasks
                    .iter()
                    .any(|t| t.snapshot.is_some() || t.rewind.is_some());
                if !travelling {
                    continue;
                }
                let scene = scene_fit(&w.job_view(), &view, w.now() as f64, test_fit());
                let chips = &scene.flows.chips;
                if chips.is_empty() {
                    continue;
                }
                chipped += 1;
                let at = format!("{name} at {} ms", w.now());
                if matches!(
                    view.status,
                    JobStatus::Restarting | JobStatus::Failed | JobStatus::Canceled
                ) {
                    faults.push(format!(
                        "{at}: {} chips while the job is {:?}",
                        chips.len(),
                        view.status
                    ));
                }
                for c in chips {
                    let status = view.tasks[c.task].status;
                    if matches!(status, TaskStatus::Failed | TaskStatus::Canceled) {
                        faults.push(format!("{at}: a chip of {:?} task {}", status, c.task));
                    }
                    let store = scene.flows.store.as_ref().map(|s| s.checkpoint);
                    if store != Some(c.checkpoint) {
                        faults.push(format!(
                            "{at}: a chip of chk-{} beside the store {store:?}",
                            c.checkpoint
                        ));
                    }
                }
            }
        }
        (faults, chipped)
    }

    #[test]
    fn chips_leave_with_their_subject_and_when_superseded() {
        let (faults, chipped) = faults();
        assert!(chipped > 100, "only {chipped} steps with chips");
        assert!(faults.is_empty(), "{}", faults.join("\n"));
    }

    /// checkpoint-vs-savepoint is canceled at 2300 ms: from then on no chip.
    #[test]
    fn a_cancel_leaves_no_chip() {
        let s = load("checkpoint-vs-savepoint").unwrap();
        let mut w = World::new(&s, s.seed).unwrap();
        while w.view().status != JobStatus::Canceled {
            w.step().expect("the lesson cancels its job");
        }
        let view = w.view();
        let snapped = view.tasks.iter().filter(|t| t.snapshot.is_some()).count();
        assert!(snapped > 0, "the tasks snapshotted before the cancel");
        for dt in [0.0, 100.0, 400.0] {
            let scene = scene_fit(&w.job_view(), &view, w.now() as f64 + dt, test_fit());
            assert!(
                scene.flows.chips.is_empty(),
                "chips {dt} ms after the cancel"
            );
        }
    }
}
