//! The strip above the stage's graph (the checkpoint coordinator's pending
//! checkpoints and the latest completed one) and its banners: the restart
//! countdown and how the job ended, the engine's failure reason said in the
//! page's language.

use engine::view::{JobView, WorldView};
use engine::JobStatus;
use yew::prelude::*;

use crate::i18n::{Lang, Msg};
use crate::labels;

/// The strip above the graph: what the checkpoint coordinator is waiting for,
/// one cell per subtask (✓ acknowledged), and the latest completed checkpoint.
pub(super) fn coordinator_strip(
    job: &JobView,
    view: &WorldView,
    lang: Lang,
    banner: Html,
    caption: Option<AttrValue>,
) -> Html {
    let c = &view.coordinator;
    let last = c
        .history
        .iter()
        .rev()
        .find(|h| h.status == engine::view::CheckpointStatus::Completed);
    // The latest checkpoint to end, if it expired: the point of a lesson about
    // timeouts, so the strip says so and names the subtasks that never
    // acknowledged it, until a later checkpoint completes.
    let expired = c
        .history
        .iter()
        .filter(|h| h.end_at.is_some())
        .max_by_key(|h| (h.end_at, h.id))
        .filter(|h| h.cause == Some(engine::trace::AbortCause::Expired));
    let name = |t: &engine::view::TaskId| {
        job.tasks
            .get(t.0 as usize)
            .map_or_else(String::new, |t| t.name.to_string())
    };
    html! {
        <div class="strip" aria-label={lang.t(Msg::CoordinatorHeading)} role="group">
            if let Some(caption) = caption {
                <span class="stage__caption">{ caption }</span>
            }
            <span class="strip__title">{ "CheckpointCoordinator" }</span>
            { banner }
            if c.pending.is_empty() {
                <span class="strip__idle">{ lang.t(Msg::NoPending) }</span>
            }
            { for c.pending.iter().map(|p| {
                let total = p.acknowledged.len() + p.waiting.len();
                html! {
                    <span class="strip__pending">
                        <strong>{ format!("{}{}", if p.kind.is_savepoint() { "S" } else { "B" }, p.id) }</strong>
                        { for p.acknowledged.iter().map(|t| html! { <span class="strip__cell strip__cell--done" title={name(t)}>{ "✓" }</span> }) }
                        { for p.waiting.iter().map(|t| html! { <span class="strip__cell" title={name(t)}>{ "…" }</span> }) }
                        <span class="strip__count">{ lang.t(Msg::AckedOf).replace("{x}", &p.acknowledged.len().to_string()).replace("{y}", &total.to_string()) }</span>
                    </span>
                }
            }) }
            if !view.failures.is_empty() {
                <crate::components::restart_meter::RestartCount view={view.restarts.clone()} class="restart-count--strip" />
            }
            if let Some(h) = expired {
                { expired_cell(h, lang, &name) }
            }
            if let Some(h) = last {
                if h.lost {
                    // Completed, then lost with the JobManager: nothing can
                    // restore it, so the strip never calls it completed.
                    <span class="strip__last strip__last--lost">
                        { "✕ " }{ format!("chk-{}", h.id) }{ " · " }{ lang.t(Msg::StatusLost) }
                    </span>
                } else {
                    <span class="strip__last">
                        { "✓ " }{ format!("chk-{}", h.id) }{ " · " }
                        { lang.t(Msg::CompletedAt).replace("{t}", &h.end_at.unwrap_or(h.trigger_at).to_string()) }
                    </span>
                }
            }
        </div>
    }
}

/// An expired checkpoint in the strip: `✕ chk-1 · expired · not acknowledged by
/// slow-sum#1, out#0` (the first three holders, then `+n`).
fn expired_cell(
    h: &engine::view::CheckpointStats,
    lang: Lang,
    name: &dyn Fn(&engine::view::TaskId) -> String,
) -> Html {
    const SHOWN: usize = 3;
    let holders: Vec<String> = h
        .subtasks
        .iter()
        .filter(|(_, s)| s.ack_at.is_none())
        .map(|(t, _)| name(t))
        .collect();
    let mut list = holders
        .iter()
        .take(SHOWN)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    if holders.len() > SHOWN {
        list.push_str(&format!(" +{}", holders.len() - SHOWN));
    }
    html! {
        <span class="strip__last strip__last--expired" data-checkpoint={h.id.to_string()}
              data-holders={holders.join(" ")}>
            { "✕ " }{ format!("chk-{}", h.id) }{ " · " }{ lang.t(Msg::StatusExpired) }
            if !holders.is_empty() {
                { " · " }{ lang.t(Msg::StripNotAcknowledged).replace("{tasks}", &list) }
            }
        </span>
    }
}

/// The banners over the stage: the restart countdown, and how the job ended
/// (finished, failed with the engine's reason said in `lang`, canceled).
pub(super) fn job_banner(
    view: &WorldView,
    t: f64,
    restart: Option<&engine::scenario::RestartConfig>,
    lang: Lang,
) -> Html {
    let countdown = (view.status == JobStatus::Restarting)
        .then_some(view.restart_at)
        .flatten()
        .map(|at| {
            let left = (at as f64 - t).max(0.0).round() as u64;
            lang.t(Msg::RestartCountdown)
                .replace("{ms}", &left.to_string())
                .replace("{at}", &at.to_string())
        });
    let job_banner = match view.status {
        JobStatus::Finished => Some(("finished", lang.t(Msg::JobFinished).to_string())),
        JobStatus::Failed => Some((
            "failed",
            match view.failure_reason.as_deref() {
                Some(r) => format!(
                    "{}{}{}",
                    lang.t(Msg::JobFailed),
                    if lang.is_chinese() { "：" } else { ": " },
                    explain_failure(lang, r, restart)
                ),
                None => lang.t(Msg::JobFailed).to_string(),
            },
        )),
        JobStatus::Canceled => Some(("canceled", lang.t(Msg::JobCanceled).to_string())),
        _ => None,
    };
    let failure_detail = (view.status == JobStatus::Failed)
        .then(|| view.failure_reason.clone())
        .flatten();
    html! {
        <>
            if let Some(text) = countdown {
                <span class="stage__banner stage__banner--restarting" role="status">
                    <span class="stage__banner-icon" aria-hidden="true">{ "↻" }</span><span class="stage__banner-text">{ text }</span>
                </span>
            }
            if let Some((kind, text)) = job_banner {
                <span class={classes!("stage__banner", format!("stage__banner--{kind}"))} role="status"
                      title={failure_detail.as_ref().map(|original| format!("{text}\n{original}"))}>
                    <span class="stage__banner-text">{ text }</span>
                    if let Some(original) = failure_detail {
                        <span class="stage__banner-detail">
                            <span>{ lang.t(Msg::FailureOriginal) }{ ": " }</span><code lang="en">{ original }</code>
                        </span>
                    }
                </span>
            }
        </>
    }
}

/// The engine's reason for a failed job (the contract's string, read back into
/// the engine's typed [`engine::trace::FailureReason`]) said in `lang`, with the
/// restart strategy the run used for its numbers ([`labels::job_failure`]). The
/// stage shows the original beside it.
pub fn explain_failure(
    lang: Lang,
    reason: &str,
    restart: Option<&engine::scenario::RestartConfig>,
) -> String {
    match reason.parse::<engine::trace::FailureReason>() {
        Ok(typed) => labels::job_failure(lang, &typed, restart),
        Err(_) => labels::failure(lang, &labels::Suppressed::Other, None),
    }
}

#[cfg(test)]
mod tests {
    use super::explain_failure;
    use crate::i18n::Lang;
    use crate::labels;

    /// The engine's failure reasons, read as its typed causes, are said in both
    /// languages with the run's restart strategy's numbers.
    #[test]
    fn failure_reasons_are_translated() {
        use engine::scenario::RestartConfig;
        let fixed = "Recovery is suppressed by FixedDelayRestartBackoffTimeStrategy(maxNumberRestartAttempts=2, backoffTimeMS=500) (last failure: crashed (script or user))";
        let two = RestartConfig::FixedDelay {
            attempts: 2,
            delay_ms: 500,
        };
        assert_eq!(
            explain_failure(Lang::En, fixed, Some(&two)),
            "Recovery is suppressed: the fixed-delay restart strategy has used up its 2 restart attempts. Last failure: a subtask crashed (by the script or the user)"
        );
        let zh = explain_failure(Lang::Zh, fixed, Some(&two));
        assert!(
            zh.contains("固定延迟") && zh.contains("2 次") && zh.contains("子任务崩溃"),
            "{zh}"
        );
        let rate = "Recovery is suppressed by FailureRateRestartBackoffTimeStrategy(FailureRateRestartBackoffTimeStrategy(failuresIntervalMS=1000,backoffTimeMS=100,maxFailuresPerInterval=2) (last failure: crashed (script or user))";
        let per = RestartConfig::FailureRate {
            max_failures: 2,
            interval_ms: 1000,
            delay_ms: 100,
        };
        let r = explain_failure(Lang::Zh, rate, Some(&per));
        assert!(r.contains("1000 ms") && r.contains("2 次"), "{r}");
        assert!(explain_failure(
            Lang::Zh,
            "Recovery is suppressed by NoRestartBackoffTimeStrategy (last failure: x)",
            Some(&RestartConfig::None)
        )
        .contains("none"));
        assert!(explain_failure(Lang::En, "restore failed: y", None).contains("Restoring"));
        // Every lesson that ends failed is explained from its typed cause.
        for (name, _) in engine::runner::BUILTINS {
            let s = engine::runner::load(name).unwrap();
            let mut w = engine::World::new(&s, s.seed).unwrap();
            w.run_to_end(s.until_ms, engine::runner::DEFAULT_LIMIT_MS, |_| {});
            if let Some(typed) = w.failure() {
                let said =
                    explain_failure(Lang::En, &typed.to_string(), Some(&s.effective_restart()));
                assert_eq!(
                    said,
                    labels::job_failure(Lang::En, typed, Some(&s.effective_restart()))
                );
                assert!(
                    !said.contains("Recovery is suppressed by"),
                    "{name}: {said}"
                );
            }
        }
    }
}
