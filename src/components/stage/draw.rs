//! The stage's picture from a [`Scene`]: the operators, each subtask's lane
//! with the words the scene fitted to it, the channels, the state chips
//! travelling to `chk-n`, the lanes' buttons and the drill's pick targets laid
//! over it in HTML, and what the page's checks read beside it (the token
//! summary, the placement pass's result). It measures no text: the scene does.

use engine::view::{JobView, WorldView};
use yew::prelude::*;

use crate::drill::pick::StagePick;
use crate::i18n::{Lang, Msg};
use crate::labels;
use crate::scene::palette::{self, Pattern, Status};
use crate::scene::{self, layout, text_fit, Lane, Scene, Text, TokenKind};

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
/// Its words are fitted to it by [`text_fit`].
fn draw_lane(lane: &Lane, text: &Text, lang: Lang, selected: Option<usize>) -> Html {
    let b = &lane.boxed;
    let notes = text_fit::lane_notes(lane, lang);
    let only_backpressure = lane.is_backpressured && notes.len() == 1;
    let is_selected = selected == Some(lane.boxed.task);
    // A phone's narrow lane (several subtasks side by side) keeps every row
    // inside it: the name without its operator (under the operator's own
    // name), the state as its glyph, the note on two rows.
    let room = text_fit::room(b.w);
    let name = text_fit::lane_name(&b.name, text.lane_name, room);
    let status_line = text_fit::status_line(lane.status, lang, text.lane_status, room);
    let note_rows = text_fit::note_rows(&notes.join(" · "), text, room);
    let x = b.x + 9.0;
    let note_y = b.y + text.note_y;
    // A sink's transaction: a chip in its status colour (the legend's ◴ / ✓ / ✕).
    // While the job waits to restart, the note row says so instead (the
    // aborted transaction is in the sink tab).
    let txn = lane.txn.filter(|_| !lane.is_restarting).map(|(id, st)| {
        let (key, label) = (labels::txn_status(lang, st).0, text_fit::txn_badge(lang, id, st));
        // Inside its lane: a phone's narrow lane draws the label narrower.
        let (w, squeeze) = text_fit::txn_badge_fit(&label, text.lane_note, b.w);
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
    let beside = text_fit::busy_beside(b.w, status_line, text);
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
pub(super) fn pick_buttons(scene: &Scene, pick: &StagePick, lang: Lang) -> Html {
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
pub(super) fn draw(
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
        marks: mark_pairs,
        mark_boxes,
    } = clash;
    let n_labels = label_boxes.len();
    // The canvas labels' boxes in scene units (`x,y,w,h;…`): a check reads the
    // canvas's pixels inside them, so it sees that the labels are where the
    // boxes say, and then measures them against the SVG's text itself.
    let boxes = |rs: &[scene::geometry::Rect]| {
        rs.iter()
            .map(|r| format!("{:.1},{:.1},{:.1},{:.1}", r.x, r.y, r.w, r.h))
            .collect::<Vec<_>>()
            .join(";")
    };
    let (label_boxes, mark_boxes) = (boxes(&label_boxes), boxes(&mark_boxes));
    html! {
      <div class="scene" style={ratio} data-scene-w={f(scene.width)} data-scene-h={f(scene.height)}
           data-bound={if scene.height_bound { "height" } else { "width" }}
           data-labels={n_labels.to_string()} data-label-boxes={label_boxes}
           data-label-overlaps={label_pairs.to_string()} data-labels-on-obstacles={labels_on.to_string()}
           data-mark-overlaps={mark_pairs.to_string()} data-mark-boxes={mark_boxes}>
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

/// The placement pass's result, written on the scene for the page's checks.
pub(super) struct Clash {
    /// The canvas labels' boxes.
    pub(super) boxes: Vec<scene::geometry::Rect>,
    /// How many pairs of labels overlap.
    pub(super) pairs: usize,
    /// How many labels sit on a lane or a record.
    pub(super) on_obstacles: usize,
    /// How many pairs of painted marks (records, barriers' bars) overlap.
    pub(super) marks: usize,
    /// The first marks' boxes (a pixel probe checks that they are painted).
    pub(super) mark_boxes: Vec<scene::geometry::Rect>,
}

/// What the stage writes beside its picture: the drill's pick targets, the
/// token summary for screen readers, and the placement pass's result.
pub(super) struct Beside {
    pub(super) picks: Html,
    pub(super) summary: Vec<String>,
    pub(super) clash: Clash,
}

pub(super) fn clash_of(scene: &Scene) -> Clash {
    let (pairs, on_obstacles) = scene::placement::clashes(scene);
    let boxes = scene::placement::labels(scene)
        .into_iter()
        .map(|(_, r)| r)
        .collect();
    Clash {
        boxes,
        pairs,
        on_obstacles,
        marks: scene::placement::mark_clashes(scene),
        mark_boxes: scene
            .tokens
            .iter()
            .take(24)
            .map(scene::placement::mark)
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::f;

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
