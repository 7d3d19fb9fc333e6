//! The transport bar under the graph, as on a video player: step back / play /
//! step forward, the speed, "skip quiet stretches" and "pause at key moments",
//! the scrubber with its checkpoint and failure markers, the clock, and the
//! interventions a class watches happen (trigger a checkpoint, a savepoint).
//! It only sends [`Action`]s; what each does to the cursor is
//! [`crate::playback::actions`].
//!
//! Every control is a real `<button>`, `<select>` or `<input>` with an accessible
//! name in the current language; on a phone each is at least 44 px.

use std::rc::Rc;

use engine::Intervention;
use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::components::icons;
use crate::components::input::{is_checked, select_value};
use crate::components::restart_meter::{RestartBand, RestartCount};
use crate::hooks::{use_lang, use_resize_observer};
use crate::i18n::Msg;
use crate::labels;
use crate::playback::{Action, Marker, MarkerKind, Mode, State, SPEEDS};

/// Properties of [`Transport`].
#[derive(Properties, PartialEq)]
pub struct TransportProps {
    /// The playback state (read only through its public, view-level fields).
    pub playback: UseReducerHandle<State>,
    /// Sends playback actions.
    pub dispatch: Callback<Action>,
    /// Auto-pause at key moments (the page's choice, or the tour's default).
    pub auto_pause: bool,
    /// The viewer switched auto-pause.
    pub on_auto_pause: Callback<bool>,
}

/// The scrubber's right end: the head's time rounded up to a whole second, so
/// that while the head runs ahead the scrubber and its markers are re-laid-out
/// once a second rather than on every frame (a frame-time profile of
/// `busy-network` showed their `style` rewritten ~370 times a second). Seeking
/// past the run's end lands on its end.
pub fn scrubber_end(horizon: u64) -> u64 {
    horizon.max(1).div_ceil(1_000) * 1_000
}

/// Properties of [`ScrubberMarkers`].
#[derive(Properties, PartialEq)]
pub struct ScrubberMarkersProps {
    /// Checkpoint and failure marks found so far.
    pub markers: Rc<Vec<Marker>>,
    /// The scrubber's right end (simulated ms).
    pub horizon: u64,
    /// The scrubber's left end.
    #[prop_or_default]
    pub origin: u64,
    /// Receives the jump to a marker's step.
    pub dispatch: Callback<Action>,
}

/// Least distance between two markers' centres, in rem: a marker with a
/// two-digit id (`✕11`) is 1.9 rem wide (33 px at 1280×720, 39 px at
/// 1920×1080, where the root font is larger), so neighbours never cover each
/// other's number.
const MARKER_GAP_REM: f64 = 2.1;

/// The same in percent of the scrubber before its width is known.
const MARKER_GAP_PCT: f64 = 3.0;

/// Positions (percent, ascending input) moved apart just enough that neighbours
/// are `gap` apart, within 0..=100: a checkpoint completing right after a failure
/// no longer hides under it. A marker's title still gives its exact time.
pub fn spread(positions: &[f64], gap: f64) -> Vec<f64> {
    let mut out: Vec<f64> = Vec::with_capacity(positions.len());
    for &p in positions {
        let min = out.last().map_or(0.0, |&q| q + gap);
        out.push(p.max(min));
    }
    // Pull back from the right end where pushing ran past it.
    let mut max = 100.0_f64;
    for x in out.iter_mut().rev() {
        *x = x.min(max).max(0.0);
        max = *x - gap;
    }
    out
}

/// The root element's font size in CSS pixels (what 1 rem is now).
fn root_font_px() -> f64 {
    web_sys::window()
        .and_then(|w| {
            let root = w.document()?.document_element()?;
            let size = w
                .get_computed_style(&root)
                .ok()??
                .get_property_value("font-size")
                .ok()?;
            size.trim_end_matches("px").parse().ok()
        })
        .unwrap_or(16.0)
}

/// Which markers the scrubber has room for, `gap` apart, as indices in time
/// order: all of them when they fit; else failures first, then aborted
/// checkpoints, then completed ones, the later before the earlier, each kept
/// when its place is at least `gap` from every marker already kept. A crowded
/// run (eleven checkpoints on a 190 px scrubber) keeps what went wrong and the
/// latest completions; every checkpoint is still in the coordinator's history.
pub fn thin(positions: &[f64], kinds: &[MarkerKind], gap: f64) -> Vec<usize> {
    let n = positions.len();
    if n < 2 || (n - 1) as f64 * gap <= 100.0 {
        return (0..n).collect();
    }
    let rank = |k: MarkerKind| match k {
        MarkerKind::Failure => 0,
        MarkerKind::Aborted => 1,
        MarkerKind::Completed => 2,
    };
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&i| (rank(kinds[i]), std::cmp::Reverse(i)));
    let mut kept: Vec<usize> = Vec::new();
    for i in order {
        if kept
            .iter()
            .all(|&k| (positions[k] - positions[i]).abs() >= gap)
        {
            kept.push(i);
        }
    }
    kept.sort_unstable();
    kept
}

/// Least distance between two markers' centres on a phone, in CSS px: a marker
/// is a 44 px tap target there, and a merged one (`✓10+2`) a little wider.
const TOUCH_MARKER_GAP_PX: f64 = 54.0;

/// A run of markers too close to tell apart with a finger, shown as one.
#[derive(Clone, Debug, PartialEq)]
pub struct Merged {
    /// Where it sits (percent of the row).
    pub at: f64,
    /// Its markers, as indices in time order.
    pub members: Vec<usize>,
    /// The one it shows and jumps to: a failure first, then an aborted
    /// checkpoint, then the latest completed one.
    pub shown: usize,
}

/// Groups markers (positions in percent, ascending) so that no two groups are
/// closer than `gap`: each marker joins the group before it when it lies less
/// than `gap` from that group's first marker. Groups sit at their first
/// marker's place, kept within `lo..=hi` (a tap target's half width from the
/// row's ends) and `gap` apart. Nothing is dropped: a merged marker counts what
/// it stands for.
pub fn merge(positions: &[f64], kinds: &[MarkerKind], gap: f64, lo: f64, hi: f64) -> Vec<Merged> {
    let rank = |k: MarkerKind| match k {
        MarkerKind::Failure => 0,
        MarkerKind::Aborted => 1,
        MarkerKind::Completed => 2,
    };
    let mut groups: Vec<(f64, Vec<usize>)> = Vec::new();
    for (i, &p) in positions.iter().enumerate() {
        match groups.last_mut() {
            Some((first, members)) if p - *first < gap => members.push(i),
            _ => groups.push((p, vec![i])),
        }
    }
    // Too many groups for the row: fold neighbours together until they fit.
    let room = (hi - lo).max(0.0);
    while groups.len() > 1 && (groups.len() - 1) as f64 * gap > room {
        let (_, tail) = groups.pop().expect("two groups");
        groups.last_mut().expect("one group").1.extend(tail);
    }
    // Forward: at least `gap` after the one before and not before `lo`; then
    // back from `hi`. The fold above left room for both.
    let mut placed: Vec<f64> = Vec::with_capacity(groups.len());
    for (p, _) in &groups {
        let min = placed.last().map_or(lo, |&q| q + gap);
        placed.push(p.max(min));
    }
    let mut max = hi;
    for x in placed.iter_mut().rev() {
        *x = x.min(max);
        max = *x - gap;
    }
    groups
        .into_iter()
        .zip(placed)
        .map(|((_, members), at)| {
            let shown = *members
                .iter()
                .min_by_key(|&&i| (rank(kinds[i]), std::cmp::Reverse(i)))
                .expect("a group has a marker");
            Merged { at, members, shown }
        })
        .collect()
}

/// The ✓n / ✕n / ⚡ buttons above the scrubber. A component of its own so the
/// marks are rebuilt when they or the horizon change, not on every frame. On a
/// phone each is a 44 px tap target and close ones are merged into one that
/// counts them ([`merge`]); on a projector close ones are moved apart and a
/// crowded row keeps what went wrong ([`thin`], [`spread`]).
#[component]
pub fn ScrubberMarkers(props: &ScrubberMarkersProps) -> Html {
    let lang = use_lang().lang;
    // The markers' row as laid out: a gap in pixels is a different share of a
    // 190 px scrubber (a projector's drawer open) than of a 900 px one.
    let row = use_node_ref();
    // (row width, root font size) in CSS pixels, read when the row resizes.
    let measured = use_state_eq(|| (0.0_f64, 16.0_f64));
    {
        let measured = measured.clone();
        use_resize_observer(
            row.clone(),
            true,
            Callback::from(move |(w, _)| measured.set((w, root_font_px()))),
        );
    }
    let (width, rem) = *measured;
    let horizon = props.horizon.max(1);
    let send = |a: Action| {
        let d = props.dispatch.clone();
        Callback::from(move |_: MouseEvent| d.emit(a.clone()))
    };
    let origin = props.origin.min(horizon - 1);
    let span = (horizon - origin) as f64;
    let pct = |t: u64| (t.saturating_sub(origin) as f64 / span * 100.0).clamp(0.0, 100.0);
    let positions: Vec<f64> = props.markers.iter().map(|m| pct(m.at)).collect();
    let kinds: Vec<MarkerKind> = props.markers.iter().map(|m| m.kind).collect();
    let label_of = |m: &Marker| labels::marker(lang, m.kind, m.checkpoint, m.task.as_deref(), m.at);
    if width > 0.0 && crate::hooks::touch::phone_layout() {
        let gap = TOUCH_MARKER_GAP_PX / width * 100.0;
        let half = (TOUCH_MARKER_GAP_PX / 2.0 / width * 100.0).min(50.0);
        let markers = merge(&positions, &kinds, gap, half, 100.0 - half).into_iter().map(|g| {
            let m = &props.markers[g.shown];
            let (class, text, label) = label_of(m);
            let (text, label) = if g.members.len() > 1 {
                let list: Vec<String> = g.members.iter().map(|&i| label_of(&props.markers[i]).2).collect();
                (
                    format!("{text}+{}", g.members.len() - 1),
                    format!(
                        "{text}+{} {}",
                        g.members.len() - 1,
                        lang.t(Msg::MarkersMerged)
                            .replace("{n}", &g.members.len().to_string())
                            .replace("{list}", &list.join("; "))
                    ),
                )
            } else {
                (text, label)
            };
            html! {
                <button type="button" class={classes!(class, (g.members.len() > 1).then_some("marker--merged"))}
                        style={format!("left: {:.2}%", g.at)} data-count={g.members.len().to_string()}
                        aria-label={label.clone()} title={label} onclick={send(Action::SeekStep(m.step))}>
                    { text }
                </button>
            }
        });
        return html! { <div class="scrubber__markers" ref={row}>{ for markers }</div> };
    }
    let gap = if width > 0.0 {
        MARKER_GAP_REM * rem / width * 100.0
    } else {
        MARKER_GAP_PCT
    };
    let shown = thin(&positions, &kinds, gap);
    let at = spread(
        &shown.iter().map(|&i| positions[i]).collect::<Vec<_>>(),
        gap,
    );
    let markers = shown.iter().map(|&i| &props.markers[i]).zip(at).map(|(m, left)| {
        let (class, text, label) = label_of(m);
        html! {
            <button type="button" class={class} style={format!("left: {left:.2}%")}
                    aria-label={label.clone()} title={label} onclick={send(Action::SeekStep(m.step))}>
                { text }
            </button>
        }
    });

    html! { <div class="scrubber__markers" ref={row}>{ for markers }</div> }
}

/// The transport bar; see the module documentation.
#[component]
pub fn Transport(props: &TransportProps) -> Html {
    let lang = use_lang().lang;
    let p = &*props.playback;
    let d = props.dispatch.clone();
    let has_run = p.view.is_some();
    let has_checkpointing = p.mode != Mode::Off;
    let send = |a: Action| d.reform(move |_: MouseEvent| a.clone());
    let on_speed = {
        let d = d.clone();
        Callback::from(move |e: Event| {
            if let Some(i) = select_value(&e).and_then(|v| v.parse::<usize>().ok()) {
                d.emit(Action::SetSpeed(i));
            }
        })
    };
    let on_skip = d.reform(|e: Event| Action::SetSkipQuiet(is_checked(&e)));
    let on_auto = props.on_auto_pause.reform(|e: Event| is_checked(&e));
    let on_scrub = {
        let d = d.clone();
        Callback::from(move |e: InputEvent| {
            let input = e
                .target()
                .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok());
            if let Some(t) = input.and_then(|i| i.value().parse::<f64>().ok()) {
                if t.is_finite() && t >= 0.0 {
                    d.emit(Action::SeekTime(t as u64));
                }
            }
        })
    };
    let horizon = scrubber_end(p.horizon);
    // The display time: between two steps it runs on while the records glide.
    let now = p
        .view
        .as_ref()
        .map_or(0, |v| v.now.max(p.display_t.floor() as u64));
    let play_label = if p.is_playing {
        lang.t(Msg::Pause)
    } else {
        lang.t(Msg::Play)
    };
    let clock = lang.t(Msg::Clock).replace("{t}", &now.to_string());
    html! {
        <div class="transport" role="group" aria-label={lang.t(Msg::TimelineLabel)}>
            <div class="transport__buttons">
                <button type="button" class="tool-button" id="step-back" disabled={!has_run}
                        aria-label={lang.t(Msg::StepBack)} title={format!("{} (←)", lang.t(Msg::StepBack))}
                        onclick={send(Action::StepBack)}>
                    { icons::step_back() }
                </button>
                <button type="button" class="tool-button tool-button--primary" id="play"
                        disabled={!has_run || (p.is_at_end && !p.is_playing)}
                        aria-label={play_label} aria-pressed={if p.is_playing { "true" } else { "false" }}
                        title={format!("{play_label} (Space)")} onclick={send(Action::TogglePlay)}>
                    { if p.is_playing { icons::pause() } else { icons::play() } }
                </button>
                <button type="button" class="tool-button" id="step-forward" disabled={!has_run || p.is_at_end}
                        aria-label={lang.t(Msg::StepForward)} title={format!("{} (→)", lang.t(Msg::StepForward))}
                        onclick={send(Action::StepForward)}>
                    { icons::step_forward() }
                </button>
            </div>
            <label class="transport__field">
                <span class="visually-hidden">{ lang.t(Msg::SpeedLabel) }</span>
                <select class="select select--speed" id="speed-select" onchange={on_speed} title={lang.t(Msg::SpeedLabel)}>
                    { for SPEEDS.iter().enumerate().map(|(i, s)| html! {
                        <option value={i.to_string()} selected={i == p.speed}>{ format!("{s}×") }</option>
                    }) }
                </select>
            </label>
            <label class="toggle" title={lang.t(Msg::SkipQuietHint)}>
                <input type="checkbox" id="skip-quiet" checked={p.skip_quiet} onchange={on_skip} />
                <span class="toggle__text">{ lang.t(Msg::SkipQuiet) }</span>
            </label>
            <label class="toggle" title={lang.t(Msg::AutoPauseHint)}>
                <input type="checkbox" id="auto-pause" checked={props.auto_pause} onchange={on_auto} />
                <span class="toggle__text">{ lang.t(Msg::AutoPause) }</span>
            </label>
            <div class="scrubber">
                if let Some(v) = restart_shown(p) {
                    <RestartBand view={v.restarts.clone()} {now} origin={p.origin} {horizon} />
                }
                <ScrubberMarkers markers={p.markers.clone()} {horizon} origin={p.origin} dispatch={d.clone()} />
                <input type="range" class="scrubber__range" id="scrubber" min={p.origin.min(horizon).to_string()} max={horizon.to_string()} step="1"
                       value={now.to_string()} aria-label={lang.t(Msg::ScrubberLabel)}
                       aria-valuetext={format!("{now} ms")} disabled={!has_run} oninput={on_scrub} />
            </div>
            // One step counter on screen (the tour's): the engine's step count is
            // kept for assistive technology, links and tests, not shown.
            if let Some(v) = restart_shown(p) {
                <RestartCount view={v.restarts.clone()} class="restart-count--transport" />
            }
            <output class="toolbar__clock" id="clock" aria-live="off" data-step={p.step().to_string()}>
                { clock }<span class="visually-hidden">{ lang.t(Msg::ClockStep).replace("{step}", &p.step().to_string()) }</span>
            </output>
            <div class="transport__actions">
                <button type="button" class="text-button text-button--checkpoint" id="trigger-checkpoint"
                        disabled={!has_run || !has_checkpointing}
                        onclick={send(Action::Intervene(Intervention::TriggerCheckpoint))}>
                    { lang.t(Msg::TriggerCheckpoint) }
                </button>
                <button type="button" class="text-button" id="savepoint" disabled={!has_run || !has_checkpointing}
                        onclick={send(Action::Intervene(Intervention::Savepoint))}>
                    { lang.t(Msg::Savepoint) }
                </button>
                if !p.branches.is_empty() {
                    <BranchPicker branches={p.branches.clone()} dispatch={d.clone()} />
                }
            </div>
        </div>
    }
}

/// The view whose restart count the bar shows: only for a run with a failure
/// on its scrubber, so the bar keeps one layout for the whole run.
fn restart_shown(p: &State) -> Option<&engine::view::WorldView> {
    p.markers
        .iter()
        .any(|m| m.kind == MarkerKind::Failure)
        .then_some(p.view.as_deref())
        .flatten()
}

/// Properties of [`BranchPicker`].
#[derive(Properties, PartialEq)]
pub struct BranchPickerProps {
    /// The kept branches.
    pub branches: Rc<Vec<crate::playback::BranchInfo>>,
    /// Receives the switch.
    pub dispatch: Callback<Action>,
}

/// The branch picker: the current branch, and the futures an intervention kept.
#[component]
pub fn BranchPicker(props: &BranchPickerProps) -> Html {
    let lang = use_lang().lang;
    let on_branch = {
        let d = props.dispatch.clone();
        Callback::from(move |e: Event| {
            let select = e
                .target()
                .and_then(|t| t.dyn_into::<web_sys::HtmlSelectElement>().ok());
            if let Some(select) = select {
                let chosen = select.value().parse::<usize>().ok();
                // The picker always shows the current branch: the one chosen becomes
                // current, and the one left is listed in its place.
                select.set_value("current");
                if let Some(i) = chosen {
                    d.emit(Action::SwitchBranch(i));
                }
            }
        })
    };
    html! {
        <label class="transport__field">
            <span class="visually-hidden">{ lang.t(Msg::BranchLabel) }</span>
            <select class="select select--branch" id="branch-select" onchange={on_branch} title={lang.t(Msg::BranchLabel)}>
                <option value="current" selected=true>{ lang.t(Msg::BranchCurrent) }</option>
                { for props.branches.iter().enumerate().rev().map(|(i, b)| html! {
                    <option value={i.to_string()} selected=false>{ labels::branch(lang, b) }</option>
                }) }
            </select>
        </label>
    }
}

#[cfg(test)]
mod tests {
    use super::{merge, spread, thin};
    use crate::playback::MarkerKind::{Aborted, Completed, Failure};

    #[test]
    fn close_markers_are_moved_apart_and_stay_on_the_scrubber() {
        // A failure at 50 % and a checkpoint completing at 51 %: 3 apart after.
        assert_eq!(
            spread(&[10.0, 50.0, 51.0, 80.0], 3.0),
            vec![10.0, 50.0, 53.0, 80.0]
        );
        // Crowded at the right end: pulled back inside, still 3 apart.
        let at = spread(&[98.0, 99.0, 100.0], 3.0);
        assert_eq!(at, vec![94.0, 97.0, 100.0]);
        // Far apart: unchanged.
        assert_eq!(spread(&[0.0, 40.0], 3.0), vec![0.0, 40.0]);
    }

    #[test]
    fn a_crowded_scrubber_keeps_failures_aborts_and_the_latest_completions() {
        // Room for all: every marker.
        assert_eq!(
            thin(&[0.0, 50.0, 100.0], &[Completed; 3], 20.0),
            vec![0, 1, 2]
        );
        // Eleven checkpoints a tenth apart and a failure, at a gap of 15 %.
        let mut at: Vec<f64> = (0..11).map(|i| f64::from(i) * 10.0).collect();
        let mut kinds = vec![Completed; 11];
        kinds[4] = Aborted;
        at.push(41.0);
        kinds.push(Failure);
        let kept = thin(&at, &kinds, 15.0);
        assert!(kept.contains(&11), "the failure stays: {kept:?}");
        assert!(
            !kept.contains(&4),
            "the abort 1 % from the failure gives way: {kept:?}"
        );
        assert!(kept.contains(&10), "the latest completion stays: {kept:?}");
        let spread_out = spread(&kept.iter().map(|&i| at[i]).collect::<Vec<_>>(), 15.0);
        assert!(
            spread_out.windows(2).all(|w| w[1] - w[0] >= 15.0 - 1e-9),
            "{spread_out:?}"
        );
        assert!(spread_out.iter().all(|x| (0.0..=100.0).contains(x)));
    }

    #[test]
    fn close_markers_merge_into_one_that_counts_them() {
        // ✓1 at 10 %, a failure at 12 % and ✓2 at 14 %; ✓3 at 60 %; gap 15 %.
        let at = [10.0, 12.0, 14.0, 60.0];
        let kinds = [Completed, Failure, Completed, Completed];
        let groups = merge(&at, &kinds, 15.0, 5.0, 95.0);
        assert_eq!(groups.len(), 2, "{groups:?}");
        assert_eq!(groups[0].members, vec![0, 1, 2]);
        assert_eq!(groups[0].shown, 1, "the failure is the one shown");
        assert_eq!(groups[1].members, vec![3]);
        assert_eq!(groups[1].shown, 3);
        // Nothing is lost, and no two are closer than the gap.
        let all: Vec<usize> = groups.iter().flat_map(|g| g.members.clone()).collect();
        assert_eq!(all, vec![0, 1, 2, 3]);
        // A group at the row's very end is pulled inside the tap target's half.
        let groups = merge(&[0.0, 100.0], &[Completed, Aborted], 15.0, 5.0, 95.0);
        assert_eq!(
            groups.iter().map(|g| g.at).collect::<Vec<_>>(),
            vec![5.0, 95.0]
        );
        // Among completed checkpoints the latest is shown.
        let groups = merge(&[50.0, 51.0], &[Completed, Completed], 15.0, 5.0, 95.0);
        assert_eq!(groups[0].shown, 1);
    }

    #[test]
    fn merged_markers_fit_the_row_however_many_there_are() {
        // Forty marks evenly over the row, a gap of 20 %: at most five groups
        // fit between 10 % and 90 %.
        let at: Vec<f64> = (0..40).map(|i| f64::from(i) * 2.5).collect();
        let kinds = vec![Completed; 40];
        let groups = merge(&at, &kinds, 20.0, 10.0, 90.0);
        assert!(groups.len() <= 5, "{}", groups.len());
        let places: Vec<f64> = groups.iter().map(|g| g.at).collect();
        assert!(
            places.windows(2).all(|w| w[1] - w[0] >= 20.0 - 1e-9),
            "{places:?}"
        );
        assert!(
            places.iter().all(|x| (10.0..=90.0).contains(x)),
            "{places:?}"
        );
        assert_eq!(
            groups.iter().map(|g| g.members.len()).sum::<usize>(),
            40,
            "every mark is counted"
        );
    }
}
