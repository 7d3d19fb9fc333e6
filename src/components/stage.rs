//! The stage: the job graph drawn from a [`Scene`] — operators, one lane per
//! subtask, channels with records, barriers and queues — plus the restart
//! countdown and how the job ended, an error message, and the choice of a
//! subtask (its state opens in the side panel's drawer). The records and
//! barriers themselves are painted on a canvas over the SVG
//! ([`crate::components::token_layer`]), repainted when its box is resized.
//!
//! Each lane has a real `<button>` laid over the SVG (positioned in percentages of
//! the scene), so it is reachable with the keyboard and named in the current
//! language. (A `foreignObject` would not do: Yew creates its children in the SVG
//! namespace.)

use std::cell::RefCell;
use std::rc::Rc;

use engine::view::{JobView, WorldView};
use engine::JobStatus;
use yew::prelude::*;

use crate::components::token_layer::TokenLayer;
use crate::drill::pick::StagePick;
use crate::hooks::{use_lang, use_reduced_motion, use_resize_observer};
use crate::i18n::{Lang, Msg};
use crate::labels;
use crate::playback::Action;
use crate::scene::palette::{self, Pattern, Status};
use crate::scene::{self, geometry, layout, Fit, Lane, Scene, Text, TokenKind};

/// Properties of [`Stage`].
#[derive(Properties, PartialEq)]
pub struct StageProps {
    /// The job graph.
    pub job: Option<Rc<JobView>>,
    /// The world now.
    pub view: Option<Rc<WorldView>>,
    /// Display time in ms.
    pub t: f64,
    /// Playback actions (a swipe steps; the error's dismiss).
    pub dispatch: Callback<Action>,
    /// The last error, shown above the stage.
    pub error: Option<String>,
    /// In the twin view: which run this stage shows (its checkpointing mode).
    #[prop_or_default]
    pub caption: Option<AttrValue>,
    /// The subtask whose state the side panel shows.
    #[prop_or_default]
    pub selected: Option<usize>,
    /// A lane was clicked.
    #[prop_or_default]
    pub on_select: Callback<usize>,
    /// The run's restart strategy (the failure explanation's numbers).
    #[prop_or_default]
    pub restart: Option<engine::scenario::RestartConfig>,
    /// Text size: 1, or `PROJECTOR_ZOOM` in projector mode.
    #[prop_or(1.0)]
    pub zoom: f64,
    /// The lesson the run plays (`data-scenario`: the page's checks wait for the
    /// stage of the lesson they chose, which may still be fetching its data).
    #[prop_or_default]
    pub scenario: AttrValue,
    /// An exercise asks for records: each one it may mean becomes a button.
    #[prop_or_default]
    pub pick: Option<StagePick>,
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

/// The SVG's patterns and arrowhead: the blocked channel's hatch and each
/// epoch's overlay (the legend uses them too), from the palette.
fn defs() -> Html {
    let blocked = Status::Blocked.colour();
    let ink = palette::PATTERN_INK;
    html! {
        <defs>
            <pattern id="hatch" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
                <rect width="8" height="8" fill={blocked.tint(0.86).hex()} />
                <rect width="3" height="8" fill={blocked.hex()} />
            </pattern>
            { for palette::PATTERNS.iter().enumerate().map(|(i, p)| {
                let id = format!("epoch-pattern-{i}");
                match p {
                    Pattern::Plain => html! {},
                    Pattern::Stripes => html! {
                        <pattern {id} width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
                            <rect width="2" height="6" fill={ink} />
                        </pattern>
                    },
                    Pattern::Dots => html! {
                        <pattern {id} width="6" height="6" patternUnits="userSpaceOnUse">
                            <circle cx="3" cy="3" r="1.4" fill={ink} />
                        </pattern>
                    },
                    Pattern::Bars => html! {
                        <pattern {id} width="6" height="6" patternUnits="userSpaceOnUse">
                            <rect width="6" height="2" fill={ink} />
                        </pattern>
                    },
                }
            }) }
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

fn draw_channels(scene: &Scene) -> Html {
    html! {
        <g class="channels">
            { for scene.channels.iter().map(|c| {
                let p = &c.path;
                let class = classes!("channel", c.is_blocked.then_some("channel--blocked"), c.is_persisting.then_some("channel--persisting"));
                let pts = p.points();
                // The arrowhead stops short of the receiver's edge: its left
                // edge, or its top edge on a channel running down.
                let points = |end_gap: f64| {
                    pts.iter()
                        .enumerate()
                        .map(|(i, (x, y))| {
                            let (x, y) = match (i, p.down) {
                                (3, false) => (x - end_gap, *y),
                                (3, true) => (*x, y - end_gap),
                                _ => (*x, *y),
                            };
                            format!("{},{}", f(x), f(y))
                        })
                        .collect::<Vec<_>>()
                        .join(" ")
                };
                // The lock on the channel, just before the records it holds.
                let (lx, ly) = c.lock_at;
                html! {
                    <g class={class} data-channel={p.channel.to_string()}>
                        if c.is_blocked {
                            <polyline class="channel__hatch" points={points(0.0)} stroke="url(#hatch)" />
                        }
                        if c.is_persisting {
                            <polyline class="channel__persist" points={points(0.0)} />
                        }
                        <polyline class="channel__line" points={points(2.0)} marker-end="url(#arrow)" />
                        if c.is_blocked {
                            { lock_glyph(lx, ly) }
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
    let name = |t: engine::view::TaskId| {
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
fn draw_lane(lane: &Lane, text: &Text, lang: Lang, selected: Option<usize>) -> Html {
    let b = &lane.boxed;
    let status = labels::task_status(lang, lane.status);
    let mut notes: Vec<String> = Vec::new();
    if lane.is_persisting {
        // Overtaken by an unaligned barrier: what it persists says more than
        // which checkpoint it is aligning.
        notes.push(format!("⤓ {}", lang.t(Msg::Persisting)));
    } else if !lane.aligning.is_empty() {
        let ids: Vec<String> = lane.aligning.iter().map(|c| format!("B{c}")).collect();
        notes.push(lang.t(Msg::Aligning).replace("{ids}", &ids.join(" ")));
    } else if !lane.unaligned.is_empty() {
        // Unaligned: snapshotted at the first barrier, waiting for the others
        // without blocking anything — never "aligning".
        let ids: Vec<String> = lane.unaligned.iter().map(|c| format!("B{c}")).collect();
        notes.push(lang.t(Msg::UnalignedNote).replace("{ids}", &ids.join(" ")));
    }
    if lane.is_backpressured {
        notes.push(format!("⚠ {}", lang.t(Msg::Backpressured)));
    }
    if lane.is_restarting {
        notes.push(format!("↻ {}", lang.t(Msg::LaneRestarting)));
    }
    let only_backpressure = lane.is_backpressured && notes.len() == 1;
    let is_selected = selected == Some(lane.boxed.task);
    // A phone's narrow lane (several subtasks side by side) keeps every row
    // inside it: the name without its operator (under the operator's own
    // name), the state as its glyph, the note on two rows.
    let room = b.w - 18.0;
    let name = lane_name(&b.name, text.lane_name, room);
    let mut status_line = format!("{} {}", labels::task_status_glyph(lane.status), status);
    if geometry::text_width(&status_line, text.lane_status, false) > room {
        status_line = labels::task_status_glyph(lane.status).to_string();
    }
    let note_rows = note_rows(&notes.join(" · "), text, room);
    let x = b.x + 9.0;
    let note_y = b.y + text.note_y;
    // A sink's transaction: a chip in its status colour (the legend's ◴ / ✓ / ✕).
    // While the job waits to restart, the note row says so instead (the
    // aborted transaction is in the sink tab).
    let txn = lane.txn.filter(|_| !lane.is_restarting).map(|(id, st)| {
        let (key, label) = (labels::txn_status(lang, st).0, txn_badge(lang, id, st));
        // Inside its lane: a phone's narrow lane draws the label narrower.
        let natural = txn_badge_width(&label, text.lane_note);
        let w = natural.min(b.w - 14.0);
        let squeeze = (w < natural).then_some(w - 12.0);
        let h = text.lane_note * 1.35;
        html! {
            <g class={classes!("lane__txn", format!("lane__txn--{key}"))} data-txn-status={key}>
                <rect x={f(x - 2.0)} y={f(note_y - text.lane_note * 1.02)} width={f(w)} height={f(h)} rx="5" />
                <text x={f(x + 4.0)} y={f(note_y)} textLength={squeeze.map(f)}
                      lengthAdjust={squeeze.map(|_| "spacingAndGlyphs")}>{ label }</text>
            </g>
        }
    });
    let note_x = if txn.is_some() { None } else { Some(x) };
    html! {
        <g class={classes!("lane", format!("lane--{}", labels::task_status_key(lane.status)), is_selected.then_some("lane--selected"))}
           data-lane={b.name.clone()}>
            <rect class="lane__rect" x={f(b.x)} y={f(b.y)} width={f(b.w)} height={f(b.h)} rx={f(palette::LANE_CORNER)} />
            <text class="lane__name" x={f(x)} y={f(b.y + text.lane_name_y)}>{ name }</text>
            <text class="lane__status" x={f(x)} y={f(b.y + text.status_y)}>{ status_line.clone() }</text>
            { txn.unwrap_or_default() }
            if let (false, Some(nx)) = (notes.is_empty(), note_x) {
                { for note_rows.into_iter().enumerate().map(|(r, (row, squeeze))| html! {
                    <text class={classes!("lane__note", only_backpressure.then_some("lane__note--backpressure"))}
                          x={f(nx)} y={f(note_y + r as f64 * text.note_row_step())}
                          textLength={squeeze.map(f)} lengthAdjust={squeeze.map(|_| "spacingAndGlyphs")}>{ row }</text>
                }) }
            }
            if let Some(busy) = &lane.busy {
                { busy_record(lane, text, &status_line, busy) }
            }
            if let Some(state) = &lane.state {
                if lane.is_lifted {
                    // Its values ride the chip leaving for chk-n: the mark stays.
                    <text class="lane__state" x={f(x)} y={f(b.y + text.state_y)} data-state={state.text(lang)}>
                        if let Some(p) = &state.snapshot {
                            <tspan class="lane__state-snap">{ p.clone() }</tspan>
                        }
                    </text>
                } else {
                    { state_text(state, x, b.y + text.state_y, text.state_row_step(), lang) }
                }
            }
        </g>
    }
}

/// A subtask's name as its lane shows it: `uid#index`, or `#index` where the
/// lane is narrower than that (a phone's row of subtasks, under the
/// operator's name).
fn lane_name(name: &str, size: f64, room: f64) -> String {
    match name.rfind('#') {
        Some(i) if geometry::text_width(name, size, true) > room => name[i..].to_string(),
        _ => name.to_string(),
    }
}

/// A lane's note in the rows the lane gives it ([`Text::note_rows`]): as one
/// row where it fits, else broken after the last space or hyphen that leaves a
/// first row fitting (`⚠ back-` / `pressured`); a row still wider than the
/// room is drawn narrower (its width for SVG `textLength`).
fn note_rows(note: &str, text: &Text, room: f64) -> Vec<(String, Option<f64>)> {
    let width = |s: &str| geometry::text_width(s, text.lane_note, false);
    let squeezed = |s: &str| {
        let w = width(s);
        (s.to_string(), (w > room).then_some(room))
    };
    if text.note_rows < 2 || width(note) <= room {
        return vec![squeezed(note)];
    }
    let breaks: Vec<usize> = note
        .char_indices()
        .filter(|(_, c)| *c == ' ' || *c == '-')
        .map(|(i, c)| i + c.len_utf8())
        .collect();
    let fitting = breaks
        .iter()
        .rev()
        .find(|&&i| width(note[..i].trim_end()) <= room)
        .or(breaks.first());
    match fitting {
        Some(&i) if i < note.len() => vec![squeezed(note[..i].trim_end()), squeezed(&note[i..])],
        _ => vec![squeezed(note)],
    }
}

/// A lane's live state (`offset (0, 5)`, `sum (odd, 9) (even, 6) +2 more`):
/// one `<text>` per row (`step` apart), a `<tspan>` per value so the one that
/// just changed flashes and a rewound one is marked.
fn state_text(state: &scene::state_line::StateLine, x: f64, y: f64, step: f64, lang: Lang) -> Html {
    // The mark and label open the first row, "+n more" and the rewind's
    // `(chk-n)` close the last.
    let ranges = state.rows();
    let last = ranges.len() - 1;
    let rows = ranges.into_iter().enumerate().map(|(r, range)| {
        let parts = &state.parts[range];
        let opens_row = |i: usize| i == 0 && (r > 0 || state.label.is_empty());
        html! {
            <text class={classes!("lane__state", state.rewind.is_some().then_some("lane__state--rewound"))}
                  x={f(x)} y={f(y + r as f64 * step)} data-state={(r == 0).then(|| state.text(lang))}
                  textLength={state.squeeze.map(f)}
                  lengthAdjust={state.squeeze.map(|_| "spacingAndGlyphs")}>
                if r == 0 {
                    if let Some(p) = &state.snapshot {
                        <tspan class="lane__state-snap">{ format!("{p} ") }</tspan>
                    }
                    { state.label.clone() }
                }
                { for parts.iter().enumerate().map(|(i, p)| html! {
                    <tspan class={classes!(
                        "lane__state-part",
                        p.flash.then_some("lane__state-part--flash"),
                        p.rewound.then_some("lane__state-part--rewound"),
                    )}>{ if opens_row(i) { p.text.clone() } else { format!(" {}", p.text) } }</tspan>
                }) }
                if r == last && state.more > 0 {
                    <tspan class="lane__state-more">{ format!("{}{}", if parts.is_empty() && r > 0 { "" } else { " " }, state.more_text(lang)) }</tspan>
                }
                if r == last {
                    if let Some(rw) = &state.rewind {
                        <tspan class="lane__state-chk">{ format!("{}{rw}", if parts.is_empty() && r > 0 && state.more == 0 { "" } else { " " }) }</tspan>
                    }
                }
            </text>
        }
    });
    html! { <>{ for rows }</> }
}

/// The record a subtask is working on, with its progress: beside the state when
/// the lane has room for both, else at the right end of the note row.
fn busy_record(lane: &Lane, text: &Text, status_line: &str, busy: &scene::Busy) -> Html {
    let b = &lane.boxed;
    let beside = b.w - 18.0 - geometry::text_width(status_line, text.lane_status, false)
        >= layout::BUSY_W + 6.0;
    let top = if beside {
        b.y + text.lane_name_y + 4.0
    } else {
        b.y + text.note_y - 21.0
    };
    let x = b.x + b.w - layout::BUSY_W - 4.0;
    html! {
        <g class="lane__busy">
            <rect class="lane__busy-record" x={f(x)} y={f(top)} width={f(layout::BUSY_W)} height="24" rx="4" />
            <text class="lane__busy-label" x={f(x + layout::BUSY_W / 2.0)} y={f(top + 12.5)} text-anchor="middle" dominant-baseline="central">{ busy.label.clone() }</text>
            if beside {
                <rect class="lane__busy-track" x={f(x)} y={f(top + 28.0)} width={f(layout::BUSY_W)} height="6" rx="3" />
                <rect class="lane__busy-fill" x={f(x)} y={f(top + 28.0)} width={f(layout::BUSY_W * busy.progress)} height="6" rx="3" />
            } else {
                <rect class="lane__busy-track" x={f(x)} y={f(top + 25.0)} width={f(layout::BUSY_W)} height="4" rx="2" />
                <rect class="lane__busy-fill" x={f(x)} y={f(top + 25.0)} width={f(layout::BUSY_W * busy.progress)} height="4" rx="2" />
            }
        </g>
    }
}

/// The real `<button>` over a lane: opens its state in the side panel.
/// Positioned in percentages of the scene, so it tracks the SVG's scaling.
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

/// A button over each record the armed pick may mean, above the lanes' buttons:
/// a tap toggles the record's value in the exercise's answer.
fn pick_buttons(scene: &Scene, pick: &StagePick, lang: Lang) -> Html {
    // As wide as the step between queued records: the buttons tile a queue
    // without overlapping and are as large as a record's place allows.
    let side = scene::SPACING;
    let buttons = scene.tokens.iter().filter_map(|t| {
        let TokenKind::Record { label, value, .. } = &t.kind else {
            return None;
        };
        if !pick.choices.contains(value) {
            return None;
        }
        let value = *value;
        let pressed = pick.chosen.contains(&value);
        let style = format!(
            "left: {:.3}%; top: {:.3}%; width: {:.3}%; height: {:.3}%",
            (t.x - side / 2.0) / scene.width * 100.0,
            (t.y - side / 2.0) / scene.height * 100.0,
            side / scene.width * 100.0,
            side / scene.height * 100.0
        );
        let onclick = {
            let cb = pick.on_pick.clone();
            Callback::from(move |e: MouseEvent| {
                e.stop_propagation();
                cb.emit(value)
            })
        };
        let name = crate::drill::wf("pick_record", lang, &[("v", label)]);
        Some(html! {
            <button type="button" class="pick-token" data-value={value.to_string()}
                    aria-pressed={pressed.to_string()} aria-label={name.clone()} title={name} {style} {onclick} />
        })
    });
    html! { <>{ for buttons }</> }
}

/// The text sizes of the scene as custom properties of its SVG (scene units).
fn text_style(t: &Text) -> String {
    format!(
        "--op-name: {}px; --op-kind: {}px; --lane-name: {}px; --lane-status: {}px; --lane-note: {}px; --lane-state: {}px",
        f(t.operator_name),
        f(t.operator_kind),
        f(t.lane_name),
        f(t.lane_status),
        f(t.lane_note),
        f(t.lane_state)
    )
}

/// The state values travelling to and from `chk-n` ([`scene::flow`]): the store
/// above the graph and a chip per subtask with its trail.
fn draw_flows(scene: &Scene) -> Html {
    let flows = &scene.flows;
    // chk-n is drawn while a chip is seen going to it or leaving it, never
    // alone (a checkpoint the failover aborts keeps no store on the stage).
    let Some(store) = flows
        .store
        .as_ref()
        .filter(|_| flows.chips.iter().any(|c| c.shown))
    else {
        return html! {};
    };
    let size = scene.text.lane_state;
    let (l, t) = (store.x - store.w / 2.0, store.y - store.h / 2.0);
    // A small cylinder (storage) left of the text.
    let (cx, cy, r) = (l + 13.0, store.y, store.h * 0.28);
    let cylinder = format!(
        "M{a} {top} v{h} a{r} {ry} 0 0 0 {d} 0 v-{h} M{a} {top} a{r} {ry} 0 0 0 {d} 0 a{r} {ry} 0 0 0 -{d} 0",
        a = f(cx - r),
        top = f(cy - r),
        h = f(2.0 * r),
        ry = f(r * 0.4),
        d = f(2.0 * r),
        r = f(r),
    );
    html! {
        <g class="flows" data-flows={flows.chips.len().to_string()}>
            <g class="flow-store" data-checkpoint={store.checkpoint.to_string()}>
                <rect class="flow-store__box" x={f(l)} y={f(t)} width={f(store.w)} height={f(store.h)} rx="6" />
                <path class="flow-store__icon" d={cylinder} />
                <text class="flow-store__text" x={f(l + 26.0)} y={f(store.y + size * 0.35)}>{ scene::flow::store_label(store.checkpoint) }</text>
            </g>
            { for flows.chips.iter().filter(|c| c.shown).map(|c| {
                let name = scene.lanes.get(c.task).map(|l| l.boxed.name.clone()).unwrap_or_default();
                html! {
                    <g class={classes!("flow", format!("flow--{}", c.direction.key()))}
                       data-flow={c.direction.key()} data-checkpoint={c.checkpoint.to_string()}
                       data-task={name} data-text={c.text.clone()} data-progress={format!("{:.2}", c.progress)}>
                        <polyline class="flow__trail" points={c.trail().iter().map(|(x, y)| format!("{},{}", f(*x), f(*y))).collect::<Vec<_>>().join(" ")} />
                        <rect class="flow__chip" x={f(c.x - c.w / 2.0)} y={f(c.y - c.h / 2.0)} width={f(c.w)} height={f(c.h)} rx="5" />
                        <text class="flow__text" x={f(c.x)} y={f(c.y + size * 0.35)} text-anchor="middle"
                              textLength={c.squeeze.map(f)} lengthAdjust={c.squeeze.map(|_| "spacingAndGlyphs")}>{ c.text.clone() }</text>
                    </g>
                }
            }) }
        </g>
    }
}

/// The scene's CSS width in pixels inside a scene box of content size
/// `room` (width, height): as wide as the box, or as tall, whichever binds
/// first. Set in pixels rather than with container units: Chrome resolves a
/// style with container units again on every layout of the page, and the SVG
/// under it was laid out again whole — a clock's text changing made every
/// frame lay out every operator, lane and channel (60 frames: 162 ms of
/// layout, 45 ms with the width in pixels).
fn scene_css_width(scene: &Scene, room: (f64, f64)) -> f64 {
    let (w, h) = room;
    w.min(h * scene.width / scene.height.max(1.0)).max(0.0)
}

/// The stage's picture: the scene's SVG, the token canvas over it, and the
/// page checks' attributes (what the placement pass placed, the summary).
fn draw(
    scene: &Scene,
    room: Option<(f64, f64)>,
    lang: Lang,
    selected: Option<usize>,
    on_select: Option<&Callback<usize>>,
    canvas: &NodeRef,
    beside: Beside,
) -> Html {
    let Beside {
        picks,
        summary,
        clash,
    } = beside;
    let mut ratio = format!(
        "--scene-w: {:.1}; --scene-h: {:.1}",
        scene.width, scene.height
    );
    // Until the box reports its size (the first frame), the stylesheet's
    // container-unit width stands in. A phone's graph is the box's width anyway
    // (no room given).
    if let Some(room) = room {
        ratio.push_str(&format!("; width: {:.2}px", scene_css_width(scene, room)));
    }
    let t = &scene.text;
    let Clash {
        boxes: label_boxes,
        pairs: label_pairs,
        on_obstacles: labels_on,
    } = clash;
    let n_labels = label_boxes.len();
    // The canvas labels' boxes in scene units (`x,y,w,h;…`): a check reads the
    // canvas's pixels inside them, so it sees that the labels are where the
    // boxes say, and then measures them against the SVG's text itself.
    let label_boxes = label_boxes
        .iter()
        .map(|r| format!("{:.1},{:.1},{:.1},{:.1}", r.x, r.y, r.w, r.h))
        .collect::<Vec<_>>()
        .join(";");
    html! {
      <div class="scene" style={ratio} data-scene-w={f(scene.width)} data-scene-h={f(scene.height)}
           data-bound={if scene.height_bound { "height" } else { "width" }}
           data-labels={n_labels.to_string()} data-label-boxes={label_boxes}
           data-label-overlaps={label_pairs.to_string()} data-labels-on-obstacles={labels_on.to_string()}>
        <svg class="scene__svg" viewBox={format!("0 0 {} {}", f(scene.width), f(scene.height))}
             preserveAspectRatio="xMidYMid meet" role="img" aria-label={lang.t(Msg::StageLabel)}
             style={text_style(t)}>
            { defs() }
            { for scene.operators.iter().map(|o| html! {
                <g class="operator" data-op={o.name.clone()}>
                    <rect class="operator__box" x={f(o.x)} y={f(o.y)} width={f(o.w)} height={f(o.h)} rx={f(palette::BOX_CORNER)} />
                    <text class="operator__name" x={f(o.x + 11.0)} y={f(o.y + t.name_y)}>{ o.name.clone() }</text>
                    <text class="operator__kind" x={f(o.x + 11.0)} y={f(o.y + t.kind_y)}>{ o.kind_label() }</text>
                </g>
            }) }
            { draw_channels(scene) }
            { for scene.lanes.iter().map(|l| draw_lane(l, t, lang, selected)) }
            { draw_flows(scene) }
        </svg>
        <canvas ref={canvas.clone()} class="scene__tokens" aria-hidden="true"
                data-record-label={f(palette::RECORD_LABEL)} />
        // The build's first frame has no app to answer a click yet: no buttons.
        if let Some(on_select) = on_select {
            { for scene.lanes.iter().map(|l| lane_button(scene, l, lang, selected, on_select)) }
        }
        { picks }
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
fn coordinator_strip(
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

/// The tokens of the last render, for the canvas.
#[derive(Default)]
struct Frame {
    width: f64,
    height: f64,
    tokens: Vec<scene::Token>,
    overflows: Vec<scene::Overflow>,
    braces: Vec<scene::braces::Brace>,
}

fn paint(canvas: &NodeRef, frame: &RefCell<Frame>, layer: &RefCell<TokenLayer>) {
    if let Some(el) = canvas.cast::<web_sys::HtmlCanvasElement>() {
        let f = frame.borrow();
        if f.width > 0.0 && f.height > 0.0 {
            layer
                .borrow_mut()
                .paint(&el, f.width, f.height, &f.tokens, &f.overflows, &f.braces);
        }
    }
}

/// The widest subtask state in `lang` at zoom 1 (scene units), for the lanes'
/// width.
fn status_width(lang: Lang) -> f64 {
    use engine::TaskStatus::*;
    [Running, Waiting, Finished, Failed, Canceled]
        .into_iter()
        .map(|st| {
            let s = format!(
                "{} {}",
                labels::task_status_glyph(st),
                labels::task_status(lang, st)
            );
            geometry::text_width(&s, Text::at(1.0).lane_status, false)
        })
        .fold(0.0, f64::max)
}

/// The widest note a lane can show in `lang` at zoom 1: back-pressured,
/// persisting, or aligning a two-digit checkpoint.
fn note_width(lang: Lang) -> f64 {
    [
        format!("⚠ {}", lang.t(Msg::Backpressured)),
        format!("⤓ {}", lang.t(Msg::Persisting)),
        lang.t(Msg::Aligning).replace("{ids}", "B88"),
        lang.t(Msg::UnalignedNote).replace("{ids}", "B88"),
        format!("↻ {}", lang.t(Msg::LaneRestarting)),
    ]
    .iter()
    .map(|s| geometry::text_width(s, Text::at(1.0).lane_note, false))
    .fold(0.0, f64::max)
}

/// A sink lane's transaction badge: `◴ T1 pre-committed`.
fn txn_badge(lang: Lang, id: u64, status: engine::view::TxnStatus) -> String {
    let (_, word, glyph) = labels::txn_status(lang, status);
    format!("{glyph} T{id} {word}")
}

/// A transaction badge's width at text size `size`: its label and padding.
fn txn_badge_width(label: &str, size: f64) -> f64 {
    geometry::text_width(label, size, false) + 12.0
}

/// The widest transaction badge a two-phase-commit sink's lane can show in
/// `lang` at zoom 1 (`◴ T88 pre-committed`), for the lanes' width.
fn txn_width(lang: Lang) -> f64 {
    use engine::view::TxnStatus::*;
    [Open, Precommitted, Committed, Aborted]
        .into_iter()
        .map(|st| txn_badge_width(&txn_badge(lang, 88, st), Text::at(1.0).lane_note))
        .fold(0.0, f64::max)
}

/// A horizontal swipe on the stage (touch only): left steps forward, right back.
fn swipe(from: (i32, i32), to: (i32, i32)) -> Option<Action> {
    let (dx, dy) = (to.0 - from.0, to.1 - from.1);
    if dx.abs() < 50 || dx.abs() < 2 * dy.abs() {
        None
    } else if dx < 0 {
        Some(Action::StepForward)
    } else {
        Some(Action::StepBack)
    }
}

/// The stage; see the module documentation.
#[component]
pub fn Stage(props: &StageProps) -> Html {
    let lang = use_lang().lang;
    // Reduced motion: values do not travel, the flows' end state is shown.
    let still = use_reduced_motion();
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
    let has_scene = props.job.is_some() && props.view.is_some();
    {
        let (node, frame, layer) = (canvas.clone(), frame.clone(), layer.clone());
        let on_size = Callback::from(move |_: (f64, f64)| {
            if let Some(el) = node.cast::<web_sys::HtmlCanvasElement>() {
                layer.borrow_mut().resized(&el);
            }
            paint(&node, &frame, &layer);
        });
        use_resize_observer(canvas.clone(), has_scene, on_size);
    }
    // The box the scene is fitted to (see `scene::layout`).
    let scene_box = use_node_ref();
    let box_size = use_state_eq(|| None::<(u32, u32)>);
    {
        let box_size = box_size.setter();
        let on_size =
            Callback::from(move |(w, h): (f64, f64)| box_size.set(Some((w as u32, h as u32))));
        use_resize_observer(scene_box.clone(), has_scene, on_size);
    }
    let (onpointerdown, onpointerup) = use_swipe(props.dispatch.clone());
    // A phone's screen: the graph runs top to bottom (read at each render; a
    // window crossing the width resizes the scene box, which renders again).
    let phone = crate::document::is_phone_width();
    let body = match (&props.job, &props.view) {
        (Some(job), Some(view)) => {
            let fit = stage_fit(*box_size, props.zoom, lang, phone);
            let room = if phone { None } else { fit.size };
            let mut scene = scene::scene_fit(job, view, props.t, fit);
            if still {
                // Reduced motion: nothing travels; the store is the end state.
                scene.flows.chips.clear();
            }
            let clash = clash_of(&scene);
            let summary = token_summary(job, view, lang);
            let picks = props
                .pick
                .as_ref()
                .map(|p| pick_buttons(&scene, p, lang))
                .unwrap_or_default();
            // The tokens go to the canvas, painted after this render commits.
            *frame.borrow_mut() = Frame {
                width: scene.width,
                height: scene.height,
                tokens: std::mem::take(&mut scene.tokens),
                overflows: std::mem::take(&mut scene.overflows),
                braces: std::mem::take(&mut scene.braces),
            };
            let banner = job_banner(view, props.t, props.restart.as_ref(), lang);
            html! {
                <>
                    { coordinator_strip(job, view, lang, banner, props.caption.clone()) }
                    // On a narrow window the graph keeps a readable width and pans
                    // sideways inside this scroller (the page itself never scrolls
                    // sideways); on a phone it runs top to bottom at the screen's
                    // width and the page scrolls down it.
                    <div class="scene-scroll">
                        <div class="scene-box" ref={scene_box.clone()} {onpointerdown} {onpointerup}>
                            { draw(&scene, room, lang, props.selected, Some(&props.on_select), &canvas, Beside { picks, summary, clash }) }
                        </div>
                    </div>
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
    let label = props.caption.as_ref().map_or_else(
        || lang.t(Msg::StageLabel).to_string(),
        |c| format!("{} · {c}", lang.t(Msg::StageLabel)),
    );
    // The engine's moment, for the page's own audits (scripts/key-moments.cjs
    // compares what is drawn with `lab run --trace` at this simulated time).
    let now = props.view.as_ref().map(|v| v.now.to_string());
    html! {
        <section class={classes!("stage", "card", phone.then_some("stage--down"))} aria-label={label} data-now={now} data-scenario={props.scenario.clone()}>
            <h2 class="visually-hidden">{ lang.t(Msg::StageLabel) }</h2>
            if let Some(error) = &props.error {
                <div class="stage__error" role="alert">
                    <strong>{ lang.t(Msg::ErrorPrefix) }</strong>{ " " }<span class="stage__error-text">{ error.clone() }</span>
                    <button type="button" class="text-button" onclick={on_dismiss}>{ lang.t(Msg::Dismiss) }</button>
                </div>
            }
            <div class="stage__viewport">
                { body }
            </div>
        </section>
    }
}

/// The placement pass's result, written on the scene for the page's checks.
struct Clash {
    /// The canvas labels' boxes.
    boxes: Vec<scene::geometry::Rect>,
    /// How many pairs of labels overlap.
    pairs: usize,
    /// How many labels sit on a lane or a record.
    on_obstacles: usize,
}

/// What the stage writes beside its picture: the drill's pick targets, the
/// token summary for screen readers, and the placement pass's result.
struct Beside {
    picks: Html,
    summary: Vec<String>,
    clash: Clash,
}

fn clash_of(scene: &Scene) -> Clash {
    let (pairs, on_obstacles) = scene::placement::clashes(scene);
    let boxes = scene::placement::labels(scene)
        .into_iter()
        .map(|(_, r)| r)
        .collect();
    Clash {
        boxes,
        pairs,
        on_obstacles,
    }
}

/// The stage of a run at its first moment, without the component around it:
/// the page's first frame, rendered at build time (`src/first_frame.rs`) before
/// the wasm has arrived. The same strip, scene and markup as [`Stage`] draws at
/// `t = 0` for `fit` (a phone's when [`Fit::orientation`] is down), with
/// nothing to click yet: no lane buttons, which need the app. The records and
/// barriers are painted on a canvas, which only the app can do; a first moment
/// has none in flight.
pub fn still(job: &JobView, view: &WorldView, fit: Fit, scenario: &str) -> Html {
    let lang = fit.lang;
    let phone = fit.orientation == scene::Orientation::Down;
    let scene = scene::scene_fit(job, view, 0.0, fit);
    let clash = clash_of(&scene);
    let summary = token_summary(job, view, lang);
    let banner = job_banner(view, 0.0, None, lang);
    // Without a room, the stylesheet's container-unit width sizes the scene,
    // as in the app's own first layout.
    let drawn = draw(
        &scene,
        None,
        lang,
        None,
        None,
        &NodeRef::default(),
        Beside {
            picks: Html::default(),
            summary,
            clash,
        },
    );
    html! {
        // No `data-now` / `data-scenario`: the page's checks wait for the app's
        // own stage by them, and this one is gone when the app mounts.
        <section class={classes!("stage", "card", phone.then_some("stage--down"))} aria-label={lang.t(Msg::StageLabel)}
                 data-first-frame={scenario.to_string()}>
            <h2 class="visually-hidden">{ lang.t(Msg::StageLabel) }</h2>
            <div class="stage__viewport">
                { coordinator_strip(job, view, lang, banner, None) }
                <div class="scene-scroll">
                    <div class="scene-box">{ drawn }</div>
                </div>
            </div>
        </section>
    }
}

/// The scene of [`still`] (its tokens included, for a check that the first
/// moment has none the canvas would have to paint).
pub fn still_scene(job: &JobView, view: &WorldView, fit: Fit) -> Scene {
    scene::scene_fit(job, view, 0.0, fit)
}

/// What the scene is fitted to: the scene box's size (if laid out yet), the
/// zoom, the widest texts a lane shows in `lang`, and which way the graph runs
/// (top to bottom on a `phone`, fitted to the box's width).
pub fn stage_fit(box_size: Option<(u32, u32)>, zoom: f64, lang: Lang, phone: bool) -> Fit {
    Fit {
        orientation: if phone {
            scene::Orientation::Down
        } else {
            scene::Orientation::Across
        },
        // The scene box's padding (0.3rem × 0.4rem) is not drawn into.
        size: box_size.map(|(w, h)| (f64::from(w) - 12.0, f64::from(h) - 10.0)),
        zoom,
        status_width: status_width(lang),
        note_width: note_width(lang),
        txn_width: txn_width(lang),
        lang,
    }
}

/// A horizontal swipe on the stage steps the run (touch only, see [`swipe`]):
/// the `pointerdown` and `pointerup` handlers.
#[hook]
fn use_swipe(dispatch: Callback<Action>) -> (Callback<PointerEvent>, Callback<PointerEvent>) {
    let touch_start = use_mut_ref(|| None::<(i32, i32)>);
    let onpointerdown = {
        let start = touch_start.clone();
        Callback::from(move |e: PointerEvent| {
            *start.borrow_mut() =
                (e.pointer_type() == "touch").then(|| (e.client_x(), e.client_y()));
        })
    };
    let onpointerup = Callback::from(move |e: PointerEvent| {
        if let Some(from) = touch_start.borrow_mut().take() {
            if let Some(a) = swipe(from, (e.client_x(), e.client_y())) {
                dispatch.emit(a);
            }
        }
    });
    (onpointerdown, onpointerup)
}

/// The banners over the stage: the restart countdown, and how the job ended
/// (finished, failed with the engine's reason said in `lang`, canceled).
fn job_banner(
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

#[cfg(test)]
mod tests {
    use super::{explain_failure, f, lane_name, note_rows};
    use crate::i18n::Lang;
    use crate::labels;
    use crate::scene::{geometry, Text};

    /// A phone's narrow lane: the name drops its operator where the full one
    /// does not fit; a note too wide for one row breaks after a space or a
    /// hyphen into two rows that fit, and stays whole where it fits.
    #[test]
    fn narrow_lanes_fit_their_name_and_note() {
        let size = 22.0;
        let full = geometry::text_width("clicks#3", size, true);
        assert_eq!(lane_name("clicks#3", size, full + 1.0), "clicks#3");
        assert_eq!(lane_name("clicks#3", size, full - 1.0), "#3");
        let text = Text::at(1.0).with_note_rows(2);
        let note = "⚠ back-pressured";
        let whole = geometry::text_width(note, text.lane_note, false);
        assert_eq!(
            note_rows(note, &text, whole + 1.0),
            vec![(note.to_string(), None)]
        );
        let room = geometry::text_width("pressured", text.lane_note, false) + 2.0;
        let rows = note_rows(note, &text, room);
        let words: Vec<&str> = rows.iter().map(|(r, _)| r.as_str()).collect();
        assert_eq!(words, ["⚠ back-", "pressured"]);
        assert!(
            rows.iter().all(|(_, squeeze)| squeeze.is_none()),
            "{rows:?}"
        );
        // One row only: drawn narrower (SVG textLength) to the room.
        let one = Text::at(1.0);
        assert_eq!(
            note_rows(note, &one, room),
            vec![(note.to_string(), Some(room))]
        );
        // The second row keeps its text in one piece once a break fits.
        let zh = "⚠ 反压 · ↻ 重启中";
        let rows = note_rows(
            zh,
            &text,
            geometry::text_width("⚠ 反压 ·", text.lane_note, false) + 1.0,
        );
        assert_eq!(rows.len(), 2, "{rows:?}");
        assert_eq!(format!("{} {}", rows[0].0, rows[1].0), zh);
    }

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
