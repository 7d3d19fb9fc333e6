//! The stage: the job graph drawn from a [`Scene`] — operators, one lane per
//! subtask, channels with records, barriers and queues — plus the restart
//! countdown, an error message, and the state popover of a clicked subtask.
//!
//! Each lane has a real `<button>` laid over the SVG (positioned in percentages of
//! the scene), so it is reachable with the keyboard and named in the current
//! language. (A `foreignObject` would not do: Yew creates its children in the SVG
//! namespace.)

use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

use engine::view::{JobView, WorldView};
use engine::world::JobStatus;
use yew::prelude::*;

use crate::components::token_layer::TokenLayer;
use crate::components::{Legend, TaskPopover};
use crate::hooks::use_lang;
use crate::i18n::{Lang, Msg};
use crate::labels::{self, LastFailure, Suppressed};
use crate::playback::Action;
use crate::scene::{self, Lane, Scene};

#[derive(Properties, PartialEq)]
pub struct StageProps {
    pub job: Option<Rc<JobView>>,
    pub view: Option<Rc<WorldView>>,
    /// Display time in ms.
    pub t: f64,
    pub dispatch: Callback<Action>,
    /// The last error, shown above the stage.
    pub error: Option<String>,
    /// In the twin view: which run this stage shows (its checkpointing mode).
    #[prop_or_default]
    pub caption: Option<AttrValue>,
    /// The colour legend under the graph (the twin view leaves it out, so the
    /// two graphs get the height they need and the same height).
    #[prop_or(true)]
    pub show_legend: bool,
}

/// Number of epoch colours in `style.css` (`--epoch-0` …).
pub const EPOCH_COLOURS: u64 = 8;
/// Number of epoch overlay patterns (the second cue besides colour).
pub const EPOCH_PATTERNS: u64 = 4;

/// A scene coordinate with one decimal, as SVG attribute text. Formats tenths as
/// integers: Rust's exact float formatting showed up as several per cent of a
/// frame's time in a profile of a stage with ~300 moving tokens.
fn f(v: f64) -> String {
    let tenths = (v * 10.0).round() as i64;
    let sign = if tenths < 0 { "-" } else { "" };
    let a = tenths.unsigned_abs();
    format!("{sign}{}.{}", a / 10, a % 10)
}

fn defs() -> Html {
    html! {
        <defs>
            <pattern id="hatch" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
                <rect width="8" height="8" fill="var(--blocked-bg)" />
                <rect width="3" height="8" fill="var(--blocked)" />
            </pattern>
            <pattern id="epoch-pattern-1" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
                <rect width="2" height="6" fill="rgb(255 255 255 / 45%)" />
            </pattern>
            <pattern id="epoch-pattern-2" width="6" height="6" patternUnits="userSpaceOnUse">
                <circle cx="3" cy="3" r="1.3" fill="rgb(255 255 255 / 55%)" />
            </pattern>
            <pattern id="epoch-pattern-3" width="6" height="6" patternUnits="userSpaceOnUse">
                <rect width="6" height="2" fill="rgb(255 255 255 / 45%)" />
            </pattern>
            <marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse">
                <path d="M0 1 9 5 0 9z" class="channel__arrowhead" />
            </marker>
        </defs>
    }
}

fn lock_glyph(x: f64, y: f64) -> Html {
    html! {
        <g class="lock" transform={format!("translate({} {})", f(x), f(y))}>
            <rect x="-12" y="-12" width="24" height="24" rx="5" class="lock__bg" />
            <path d="M-5 -2v-3a5 5 0 0 1 10 0v3" class="lock__shackle" />
            <rect x="-7" y="-2" width="14" height="10" rx="2" class="lock__body" />
        </g>
    }
}

fn draw_channels(scene: &Scene, lang: Lang) -> Html {
    let persist_word = lang.t(Msg::Persisting);
    html! {
        <g class="channels">
            { for scene.channels.iter().map(|c| {
                let p = &c.path;
                let class = classes!("channel", c.is_blocked.then_some("channel--blocked"), c.is_persisting.then_some("channel--persisting"));
                let (mx, my) = p.at(p.length() * 0.5);
                html! {
                    <g class={class} data-channel={p.channel.to_string()}>
                        if c.is_blocked {
                            <line class="channel__hatch" x1={f(p.x1)} y1={f(p.y1)} x2={f(p.x2)} y2={f(p.y2)} stroke="url(#hatch)" />
                        }
                        if c.is_persisting {
                            <line class="channel__persist" x1={f(p.x1)} y1={f(p.y1)} x2={f(p.x2)} y2={f(p.y2)} />
                        }
                        <line class="channel__line" x1={f(p.x1)} y1={f(p.y1)} x2={f(p.x2 - 2.0)} y2={f(p.y2)} marker-end="url(#arrow)" />
                        if c.is_blocked {
                            { lock_glyph(mx, my - 26.0) }
                        }
                        if c.is_persisting {
                            <g class="persist-tag" transform={format!("translate({} {})", f(mx), f(my - 30.0))}>
                                <rect x="-44" y="-13" width="88" height="24" rx="5" />
                                <text y="0" text-anchor="middle" dominant-baseline="central">{ persist_word }</text>
                            </g>
                        }
                    </g>
                }
            }) }
        </g>
    }
}

/// What is in flight, per channel, in words: the text twin of the token canvas
/// (which is decorative, `aria-hidden`). Counted from the view, so queues longer
/// than drawn ("+N") are counted in full. Changes only when the engine steps.
pub fn token_summary(job: &JobView, view: &WorldView, lang: Lang) -> Vec<String> {
    let name = |t: engine::ids::TaskId| {
        job.tasks
            .get(t.0 as usize)
            .map_or_else(String::new, |t| t.name.to_string())
    };
    let mut lines = Vec::new();
    for (cs, c) in job.channels.iter().zip(&view.channels) {
        let elements = c
            .out_queue
            .iter()
            .chain(c.wire.iter().map(|w| &w.element))
            .chain(&c.queue);
        let mut records = 0usize;
        let mut barriers: Vec<String> = Vec::new();
        for e in elements {
            match e {
                engine::view::ElementView::Record { .. } => records += 1,
                engine::view::ElementView::Barrier {
                    checkpoint,
                    unaligned,
                    ..
                } => {
                    let mut b = lang
                        .t(Msg::BarrierTitle)
                        .replace("{id}", &checkpoint.0.to_string());
                    if *unaligned {
                        b = format!("{b} ({})", lang.t(Msg::UnalignedBarrier));
                    }
                    barriers.push(b);
                }
                _ => {}
            }
        }
        if records == 0 && barriers.is_empty() {
            continue;
        }
        let mut line = lang
            .t(Msg::ChannelTokens)
            .replace("{from}", &name(cs.from))
            .replace("{to}", &name(cs.to))
            .replace("{records}", &records.to_string());
        for b in barriers {
            line.push_str(" · ");
            line.push_str(&b);
        }
        lines.push(line);
    }
    lines
}

/// A lane's picture (SVG); its button is [`lane_button`], laid over it in HTML.
fn draw_lane(lane: &Lane, lang: Lang, selected: Option<usize>) -> Html {
    let b = &lane.boxed;
    let status = labels::task_status(lang, lane.status);
    let mut notes: Vec<String> = Vec::new();
    if !lane.aligning.is_empty() {
        let ids: Vec<String> = lane.aligning.iter().map(|c| format!("B{c}")).collect();
        notes.push(lang.t(Msg::Aligning).replace("{ids}", &ids.join(" ")));
    }
    if lane.is_backpressured {
        notes.push(format!("⚠ {}", lang.t(Msg::Backpressured)));
    }
    let is_selected = selected == Some(lane.boxed.task);
    html! {
        <g class={classes!("lane", format!("lane--{}", labels::task_status_key(lane.status)), is_selected.then_some("lane--selected"))}
           data-lane={b.name.clone()}>
            <rect class="lane__rect" x={f(b.x)} y={f(b.y)} width={f(b.w)} height={f(b.h)} rx="9" />
            <text class="lane__name" x={f(b.x + 9.0)} y={f(b.y + 27.0)}>{ b.name.clone() }</text>
            <text class="lane__status" x={f(b.x + 9.0)} y={f(b.y + 53.0)}>
                { format!("{} {}", labels::task_status_glyph(lane.status), status) }
            </text>
            if !notes.is_empty() {
                <text class={classes!("lane__note", lane.aligning.is_empty().then_some("lane__note--backpressure"))}
                      x={f(b.x + 9.0)} y={f(b.y + 80.0)}>{ notes.join(" · ") }</text>
            }
            if let Some(busy) = &lane.busy {
                <g class="lane__busy">
                    <rect class="lane__busy-record" x={f(b.x + b.w - 46.0)} y={f(b.y + 32.0)} width="38" height="24" rx="4" />
                    <text class="lane__busy-label" x={f(b.x + b.w - 27.0)} y={f(b.y + 44.5)} text-anchor="middle" dominant-baseline="central">{ busy.label.clone() }</text>
                    <rect class="lane__busy-track" x={f(b.x + b.w - 46.0)} y={f(b.y + 59.0)} width="38" height="6" rx="3" />
                    <rect class="lane__busy-fill" x={f(b.x + b.w - 46.0)} y={f(b.y + 59.0)} width={f(38.0 * busy.progress)} height="6" rx="3" />
                </g>
            }
        </g>
    }
}

/// The real `<button>` over a lane: opens its state popover. Positioned in
/// percentages of the scene, so it tracks the SVG's scaling.
fn lane_button(
    scene: &Scene,
    lane: &Lane,
    lang: Lang,
    selected: Option<usize>,
    on_select: &Callback<usize>,
) -> Html {
    let b = &lane.boxed;
    let task = b.task;
    let status = labels::task_status(lang, lane.status);
    let label = lang
        .t(Msg::LaneButton)
        .replace("{task}", &b.name)
        .replace("{status}", status);
    let onclick = {
        let cb = on_select.clone();
        Callback::from(move |_: MouseEvent| cb.emit(task))
    };
    let style = format!(
        "left: {:.3}%; top: {:.3}%; width: {:.3}%; height: {:.3}%",
        b.x / scene.width * 100.0,
        b.y / scene.height * 100.0,
        b.w / scene.width * 100.0,
        b.h / scene.height * 100.0
    );
    html! {
        <button type="button" class={classes!("lane-button", format!("lane-button--{}", labels::task_status_key(lane.status)))}
                data-task={b.name.clone()} aria-label={label.clone()} title={label} {style}
                aria-expanded={if selected == Some(task) { "true" } else { "false" }} {onclick}>
            <span class="visually-hidden">{ status }</span>
        </button>
    }
}

fn draw(
    scene: &Scene,
    lang: Lang,
    selected: Option<usize>,
    on_select: &Callback<usize>,
    canvas: &NodeRef,
    summary: Vec<String>,
) -> Html {
    let ratio = format!(
        "--scene-w: {:.1}; --scene-h: {:.1}",
        scene.width, scene.height
    );
    html! {
      <div class="scene" style={ratio}>
        <svg class="scene__svg" viewBox={format!("0 0 {} {}", f(scene.width), f(scene.height))}
             preserveAspectRatio="xMidYMid meet" role="img" aria-label={lang.t(Msg::StageLabel)}>
            { defs() }
            { for scene.operators.iter().map(|o| html! {
                <g class="operator" data-op={o.name.clone()}>
                    <rect class="operator__box" x={f(o.x)} y={f(o.y)} width={f(o.w)} height={f(o.h)} rx="12" />
                    <text class="operator__name" x={f(o.x + 10.0)} y={f(o.y + 27.0)}>{ o.name.clone() }</text>
                    <text class="operator__kind" x={f(o.x + 10.0)} y={f(o.y + 51.0)}>
                        { match &o.detail {
                            Some(d) if o.kind == "sink" && d.len() <= 5 => format!("sink · {d}"),
                            Some(d) if o.kind == "sink" => format!("sink: {d}"),
                            Some(d) => d.clone(),
                            None => o.kind.clone(),
                        } }
                    </text>
                </g>
            }) }
            { draw_channels(scene, lang) }
            { for scene.lanes.iter().map(|l| draw_lane(l, lang, selected)) }
        </svg>
        <canvas ref={canvas.clone()} class="scene__tokens" aria-hidden="true" />
        { for scene.lanes.iter().map(|l| lane_button(scene, l, lang, selected, on_select)) }
        <div class="visually-hidden token-summary">
            <p>{ lang.t(Msg::TokensHeading) }</p>
            if summary.is_empty() {
                <p>{ lang.t(Msg::TokensNone) }</p>
            } else {
                <ul>{ for summary.into_iter().map(|l| html! { <li>{ l }</li> }) }</ul>
            }
        </div>
      </div>
    }
}

/// The strip above the graph: what the checkpoint coordinator is waiting for,
/// one cell per subtask (✓ acknowledged), and the latest completed checkpoint.
fn coordinator_strip(job: &JobView, view: &WorldView, lang: Lang, banner: Html) -> Html {
    let c = &view.coordinator;
    let last = c
        .history
        .iter()
        .rev()
        .find(|h| h.status == engine::coordinator::CheckpointStatus::Completed);
    let name = |t: &engine::ids::TaskId| {
        job.tasks
            .get(t.0 as usize)
            .map_or_else(String::new, |t| t.name.to_string())
    };
    html! {
        <div class="strip" aria-label={lang.t(Msg::CoordinatorHeading)} role="group">
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
            if let Some(h) = last {
                <span class="strip__last">
                    { "✓ " }{ format!("chk-{}", h.id) }{ " · " }
                    { lang.t(Msg::CompletedAt).replace("{t}", &h.end_at.unwrap_or(h.trigger_at).to_string()) }
                </span>
            }
        </div>
    }
}

/// The number after `name=` in Flink's `toString()` of a strategy.
fn field<'a>(text: &'a str, name: &str) -> Option<&'a str> {
    let at = text.find(&format!("{name}="))? + name.len() + 1;
    let rest = &text[at..];
    Some(
        &rest[..rest
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(rest.len())],
    )
}

/// The engine's (Flink's) English reason for a failed job, said in `lang`:
/// `Recovery is suppressed by FixedDelayRestartBackoffTimeStrategy(maxNumberRestartAttempts=2, …)
/// (last failure: crashed (script or user))` → "Recovery is suppressed: the
/// fixed-delay restart strategy has used up its 2 restart attempts. Last failure:
/// a subtask crashed …". The stage shows the original beside it. (The parsing
/// stays here until the engine reports a typed cause; the words are
/// [`labels::failure`]'s.)
pub fn explain_failure(lang: Lang, reason: &str) -> String {
    let (head, last) = match reason.rfind(" (last failure: ") {
        Some(i) => (
            &reason[..i],
            Some(reason[i + " (last failure: ".len()..].trim_end_matches(')')),
        ),
        None => (reason, None),
    };
    let number = |strategy: &str, name: &str| field(strategy, name).unwrap_or("?").to_string();
    let why = if let Some(strategy) = head.strip_prefix("Recovery is suppressed by ") {
        if strategy.starts_with("FixedDelay") {
            Suppressed::FixedDelay {
                max: number(strategy, "maxNumberRestartAttempts"),
            }
        } else if strategy.starts_with("FailureRate") {
            Suppressed::FailureRate {
                max: number(strategy, "maxFailuresPerInterval"),
                interval: number(strategy, "failuresIntervalMS"),
            }
        } else if strategy.starts_with("NoRestart") {
            Suppressed::NoRestart
        } else if strategy.starts_with("ExponentialDelay") {
            Suppressed::ExponentialDelay
        } else {
            Suppressed::Other
        }
    } else if head.starts_with("restore failed") {
        Suppressed::Restore
    } else {
        Suppressed::Other
    };
    let last = last.map(|last| {
        if last.starts_with("crashed") {
            LastFailure::Crashed
        } else if last.starts_with("Exceeded checkpoint tolerable failure threshold") {
            LastFailure::TolerableExceeded
        } else {
            LastFailure::Other(last.to_string())
        }
    });
    labels::failure(lang, &why, last.as_ref())
}

/// The tokens of the last render, for the canvas.
#[derive(Default)]
struct Frame {
    width: f64,
    height: f64,
    tokens: Vec<scene::Token>,
    overflows: Vec<scene::Overflow>,
}

fn paint(canvas: &NodeRef, frame: &RefCell<Frame>, layer: &RefCell<TokenLayer>) {
    if let Some(el) = canvas.cast::<web_sys::HtmlCanvasElement>() {
        let f = frame.borrow();
        if f.width > 0.0 && f.height > 0.0 {
            layer
                .borrow_mut()
                .paint(&el, f.width, f.height, &f.tokens, &f.overflows);
        }
    }
}

#[component]
pub fn Stage(props: &StageProps) -> Html {
    let lang = use_lang().lang;
    let selected = use_state_eq(|| None::<usize>);
    let on_select = {
        let selected = selected.clone();
        use_callback(*selected, move |task: usize, current: &Option<usize>| {
            selected.set(if *current == Some(task) {
                None
            } else {
                Some(task)
            });
        })
    };
    let on_close = {
        let selected = selected.setter();
        use_callback((), move |_: (), _: &()| selected.set(None))
    };
    // The token canvas: painted imperatively after every render (outside the
    // virtual DOM), and again whenever its box changes size.
    let canvas = use_node_ref();
    let frame = use_mut_ref(Frame::default);
    let layer = use_mut_ref(TokenLayer::default);
    {
        let (canvas, frame, layer) = (canvas.clone(), frame.clone(), layer.clone());
        use_effect(move || {
            paint(&canvas, &frame, &layer);
        });
    }
    {
        let (canvas, frame, layer) = (canvas.clone(), frame.clone(), layer.clone());
        let has_canvas = props.job.is_some() && props.view.is_some();
        use_effect_with(has_canvas, move |_| {
            let observer = canvas.cast::<web_sys::HtmlCanvasElement>().and_then(|el| {
                let target = el.clone();
                let repaint = Closure::<dyn FnMut()>::new(move || {
                    layer.borrow_mut().resized(&target);
                    paint(&canvas, &frame, &layer);
                });
                let observer =
                    web_sys::ResizeObserver::new(repaint.as_ref().unchecked_ref()).ok()?;
                observer.observe(&el);
                Some((observer, repaint))
            });
            move || {
                if let Some((observer, _repaint)) = observer {
                    observer.disconnect();
                }
            }
        });
    }
    let body = match (&props.job, &props.view) {
        (Some(job), Some(view)) => {
            let mut scene = scene::scene(job, view, props.t);
            let summary = token_summary(job, view, lang);
            // The tokens go to the canvas, painted after this render commits.
            *frame.borrow_mut() = Frame {
                width: scene.width,
                height: scene.height,
                tokens: std::mem::take(&mut scene.tokens),
                overflows: std::mem::take(&mut scene.overflows),
            };
            let countdown = (view.status == JobStatus::Restarting)
                .then(|| view.restart_at)
                .flatten()
                .map(|at| {
                    let left = (at as f64 - props.t).max(0.0).round() as u64;
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
                            if lang == Lang::Zh { "：" } else { ": " },
                            explain_failure(lang, r)
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
            let popover = selected.and_then(|task| {
                let name = job.tasks.get(task)?.name.to_string();
                let tv = view.tasks.get(task)?.clone();
                Some(html! { <TaskPopover {name} task={tv} dispatch={props.dispatch.clone()} on_close={on_close.clone()} /> })
            });
            let banner = html! {
                <>
                    if let Some(text) = countdown {
                        <span class="stage__banner stage__banner--restarting" role="status">
                            <span class="stage__banner-icon" aria-hidden="true">{ "↻" }</span>{ text }
                        </span>
                    }
                    if let Some((kind, text)) = job_banner {
                        <span class={classes!("stage__banner", format!("stage__banner--{kind}"))} role="status">
                            <span class="stage__banner-text">{ text }</span>
                            if let Some(original) = failure_detail.clone() {
                                <span class="stage__banner-detail">
                                    { lang.t(Msg::FailureOriginal) }{ ": " }<code lang="en">{ original }</code>
                                </span>
                            }
                        </span>
                    }
                </>
            };
            html! {
                <>
                    { coordinator_strip(job, view, lang, banner) }
                    <div class="scene-box">{ draw(&scene, lang, *selected, &on_select, &canvas, summary) }</div>
                    { popover.unwrap_or_default() }
                </>
            }
        }
        _ => html! {
            <div class="stage__empty">
                <p class="stage__empty-title">{ lang.t(Msg::StageEmptyTitle) }</p>
                <p class="stage__empty-hint">{ lang.t(Msg::StageEmptyHint) }</p>
            </div>
        },
    };
    let on_dismiss = {
        let d = props.dispatch.clone();
        Callback::from(move |_: MouseEvent| d.emit(Action::ClearError))
    };
    html! {
        <section class="stage card" aria-label={props.caption.as_ref().map_or_else(|| lang.t(Msg::StageLabel).to_string(), |c| format!("{} · {c}", lang.t(Msg::StageLabel)))}>
            <div class="stage__header">
                <h2 class="card__title">
                    { lang.t(Msg::StageLabel) }
                    if let Some(caption) = &props.caption {
                        <span class="stage__caption">{ caption.clone() }</span>
                    }
                </h2>
                <span class="stage__hint">{ lang.t(Msg::StageHint) }</span>
            </div>
            if let Some(error) = &props.error {
                <div class="stage__error" role="alert">
                    <strong>{ lang.t(Msg::ErrorPrefix) }</strong>{ " " }<span class="stage__error-text">{ error.clone() }</span>
                    <button type="button" class="text-button" onclick={on_dismiss}>{ lang.t(Msg::Dismiss) }</button>
                </div>
            }
            <div class="stage__viewport">
                { body }
            </div>
            if props.show_legend {
                <Legend />
            }
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::{explain_failure, f};
    use crate::i18n::Lang;

    /// The engine's English failure reasons are said in both languages.
    #[test]
    fn failure_reasons_are_translated() {
        let fixed = "Recovery is suppressed by FixedDelayRestartBackoffTimeStrategy(maxNumberRestartAttempts=2, backoffTimeMS=500) (last failure: crashed (script or user))";
        assert_eq!(
            explain_failure(Lang::En, fixed),
            "Recovery is suppressed: the fixed-delay restart strategy has used up its 2 restart attempts. Last failure: a subtask crashed (by the script or the user)"
        );
        let zh = explain_failure(Lang::Zh, fixed);
        assert!(
            zh.contains("固定延迟") && zh.contains("2 次") && zh.contains("子任务崩溃"),
            "{zh}"
        );
        let rate = "Recovery is suppressed by FailureRateRestartBackoffTimeStrategy(FailureRateRestartBackoffTimeStrategy(failuresIntervalMS=1000,backoffTimeMS=100,maxFailuresPerInterval=2) (last failure: crashed (script or user))";
        let r = explain_failure(Lang::Zh, rate);
        assert!(r.contains("1000 ms") && r.contains("2 次"), "{r}");
        assert!(explain_failure(
            Lang::Zh,
            "Recovery is suppressed by NoRestartBackoffTimeStrategy (last failure: x)"
        )
        .contains("none"));
        assert!(explain_failure(Lang::En, "restore failed: y").contains("Restoring"));
    }

    /// `f` writes what `format!("{:.1}")` writes (ties aside, which the scene's
    /// sums of binary fractions do not hit exactly).
    #[test]
    fn coordinates_have_one_decimal() {
        for v in [
            0.0, 0.04, 0.06, 1.0, 12.34, 99.96, -0.6, -12.34, -19.0, 1234.5678,
        ] {
            assert_eq!(f(v), format!("{v:.1}"), "{v}");
        }
        for i in -2_000..2_000 {
            let v = i as f64 * 0.37 + 0.013;
            assert_eq!(f(v), format!("{v:.1}"), "{v}");
        }
    }
}
