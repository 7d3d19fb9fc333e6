//! The stage: the job graph drawn from a [`Scene`] — operators, one lane per
//! subtask, channels with records, barriers and queues — plus the restart
//! countdown, an error message, and the state popover of a clicked subtask.
//!
//! Each lane has a real `<button>` laid over the SVG (positioned in percentages of
//! the scene), so it is reachable with the keyboard and named in the current
//! language. (A `foreignObject` would not do: Yew creates its children in the SVG
//! namespace.)

use std::rc::Rc;

use engine::view::{JobView, WorldView};
use engine::world::{JobStatus, TaskStatus};
use yew::prelude::*;

use crate::app::use_lang;
use crate::components::{Legend, TaskPopover};
use crate::i18n::{Lang, Msg};
use crate::playback::Action;
use crate::scene::{self, Lane, Place, Scene, TokenKind, TOKEN};

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

/// The word for a task status.
pub fn task_status_label(lang: Lang, status: TaskStatus) -> &'static str {
    lang.t(match status {
        TaskStatus::Running => Msg::TaskRunning,
        TaskStatus::Waiting => Msg::TaskWaiting,
        TaskStatus::Finished => Msg::TaskFinished,
        TaskStatus::Failed => Msg::TaskFailed,
        TaskStatus::Canceled => Msg::TaskCanceled,
    })
}

fn status_key(status: TaskStatus) -> &'static str {
    match status {
        TaskStatus::Running => "running",
        TaskStatus::Waiting => "waiting",
        TaskStatus::Finished => "finished",
        TaskStatus::Failed => "failed",
        TaskStatus::Canceled => "canceled",
    }
}

fn status_glyph(status: TaskStatus) -> &'static str {
    match status {
        TaskStatus::Running => "▶",
        TaskStatus::Waiting => "…",
        TaskStatus::Finished => "✓",
        TaskStatus::Failed => "✕",
        TaskStatus::Canceled => "■",
    }
}

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

/// Records, barriers and markers, keyed by [`scene::Token::id`] so an element
/// follows its token from frame to frame (only its `transform` changes).
fn draw_tokens(scene: &Scene, lang: Lang) -> Html {
    let h = TOKEN / 2.0;
    html! {
        <g class="tokens">
            { for scene.tokens.iter().map(|tok| {
                let place = match tok.place {
                    Place::OutQueue => "token--out",
                    Place::Wire => "token--wire",
                    Place::InQueue => "token--queued",
                };
                let at = format!("translate({} {})", f(tok.x), f(tok.y));
                match &tok.kind {
                    TokenKind::Record { label, epoch, .. } => {
                        let pattern = epoch % EPOCH_PATTERNS;
                        let title = lang.t(Msg::EpochTitle).replace("{label}", label).replace("{epoch}", &epoch.to_string());
                        html! {
                            <g key={tok.id.clone()} class={classes!("token", "token--record", place, tok.is_persisting.then_some("token--persisting"))}
                               transform={at} data-epoch={epoch.to_string()}>
                                <title>{ title }</title>
                                if tok.is_persisting {
                                    <rect class="token__persist-ring" x={f(-h - 4.0)} y={f(-h - 4.0)} width={f(TOKEN + 8.0)} height={f(TOKEN + 8.0)} rx="6" />
                                }
                                <rect x={f(-h)} y={f(-h)} width={f(TOKEN)} height={f(TOKEN)} rx="4"
                                      fill={format!("var(--epoch-{})", epoch % EPOCH_COLOURS)} class="token__body" />
                                if pattern != 0 {
                                    <rect x={f(-h)} y={f(-h)} width={f(TOKEN)} height={f(TOKEN)} rx="4" fill={format!("url(#epoch-pattern-{pattern})")} />
                                }
                                <text class="token__label" y="1" text-anchor="middle" dominant-baseline="central">{ label.clone() }</text>
                            </g>
                        }
                    }
                    TokenKind::Barrier { checkpoint, is_unaligned, is_savepoint } => {
                        let tag = format!("{}{}", if *is_savepoint { "S" } else { "B" }, checkpoint);
                        let mut title = lang.t(Msg::BarrierTitle).replace("{id}", &checkpoint.to_string());
                        if *is_unaligned {
                            title = format!("{title} · {}", lang.t(Msg::UnalignedBarrier));
                        }
                        html! {
                            <g key={tok.id.clone()} class={classes!("token", "barrier", place, is_unaligned.then_some("barrier--unaligned"))}
                               transform={at} data-checkpoint={checkpoint.to_string()}>
                                <title>{ title }</title>
                                <rect class="barrier__bar" x="-5" y="-25" width="10" height="50" rx="2" />
                                <rect class="barrier__tag" x="-21" y="-52" width="42" height="25" rx="4" />
                                <text class="barrier__label" y="-39.5" text-anchor="middle" dominant-baseline="central">{ tag }</text>
                            </g>
                        }
                    }
                    TokenKind::Cancel { checkpoint } => html! {
                        <g key={tok.id.clone()} class={classes!("token", "cancel", place)} transform={at}>
                            <rect x="-11" y="-11" width="22" height="22" rx="11" class="cancel__body" />
                            <text class="cancel__label" text-anchor="middle" dominant-baseline="central">{ format!("✕{checkpoint}") }</text>
                        </g>
                    },
                    TokenKind::End => html! {
                        <g key={tok.id.clone()} class={classes!("token", "eop", place)} transform={at}>
                            <rect x="-3" y="-14" width="6" height="28" rx="2" class="eop__bar" />
                            <text class="eop__label" y="-20" text-anchor="middle">{ "EOP" }</text>
                        </g>
                    },
                }
            }) }
            { for scene.overflows.iter().map(|o| html! {
                <text class="overflow" x={f(o.x)} y={f(o.y)} text-anchor="middle">{ format!("+{}", o.count) }</text>
            }) }
        </g>
    }
}

/// A lane's picture (SVG); its button is [`lane_button`], laid over it in HTML.
fn draw_lane(lane: &Lane, lang: Lang, selected: Option<usize>) -> Html {
    let b = &lane.boxed;
    let status = task_status_label(lang, lane.status);
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
        <g class={classes!("lane", format!("lane--{}", status_key(lane.status)), is_selected.then_some("lane--selected"))}
           data-lane={b.name.clone()}>
            <rect class="lane__rect" x={f(b.x)} y={f(b.y)} width={f(b.w)} height={f(b.h)} rx="9" />
            <text class="lane__name" x={f(b.x + 9.0)} y={f(b.y + 27.0)}>{ b.name.clone() }</text>
            <text class="lane__status" x={f(b.x + 9.0)} y={f(b.y + 53.0)}>
                { format!("{} {}", status_glyph(lane.status), status) }
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
    let status = task_status_label(lang, lane.status);
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
        <button type="button" class={classes!("lane-button", format!("lane-button--{}", status_key(lane.status)))}
                data-task={b.name.clone()} aria-label={label.clone()} title={label} {style}
                aria-expanded={if selected == Some(task) { "true" } else { "false" }} {onclick}>
            <span class="visually-hidden">{ status }</span>
        </button>
    }
}

fn draw(scene: &Scene, lang: Lang, selected: Option<usize>, on_select: &Callback<usize>) -> Html {
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
            { draw_tokens(scene, lang) }
        </svg>
        { for scene.lanes.iter().map(|l| lane_button(scene, l, lang, selected, on_select)) }
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
    let body = match (&props.job, &props.view) {
        (Some(job), Some(view)) => {
            let scene = scene::scene(job, view, props.t);
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
                    format!(
                        "{}{}",
                        lang.t(Msg::JobFailed),
                        view.failure_reason
                            .as_deref()
                            .map(|r| format!(": {r}"))
                            .unwrap_or_default()
                    ),
                )),
                JobStatus::Canceled => Some(("canceled", lang.t(Msg::JobCanceled).to_string())),
                _ => None,
            };
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
                        <span class={classes!("stage__banner", format!("stage__banner--{kind}"))} role="status">{ text }</span>
                    }
                </>
            };
            html! {
                <>
                    { coordinator_strip(job, view, lang, banner) }
                    <div class="scene-box">{ draw(&scene, lang, *selected, &on_select) }</div>
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
    use super::f;

    /// `f` writes what `format!("{:.1}")` writes (ties aside, which the scene's
    /// sums of binary fractions do not hit exactly).
    #[test]
    fn coordinates_have_one_decimal() {
        for v in [0.0, 0.04, 0.06, 1.0, 12.34, 99.96, -0.6, -12.34, -19.0, 1234.5678] {
            assert_eq!(f(v), format!("{v:.1}"), "{v}");
        }
        for i in -2_000..2_000 {
            let v = i as f64 * 0.37 + 0.013;
            assert_eq!(f(v), format!("{v:.1}"), "{v}");
        }
    }
}
