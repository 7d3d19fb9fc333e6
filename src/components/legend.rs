//! The legend under the graph: what each colour and shape on the stage means,
//! drawn from the same palette ([`crate::scene::palette`]) the stage and the
//! token canvas draw with. Every entry is something the graph shows: records in
//! their checkpoint's colour and pattern, barriers, a blocked channel's lock and
//! hatch, persisted in-flight records' dashed ring, a sink lane's transaction
//! chip (pre-committed, committed, aborted) and a failed subtask.

use yew::prelude::*;

use crate::hooks::use_lang;
use crate::i18n::Msg;
use crate::scene::palette::{self, Pattern, Status, EPOCHS, PATTERNS};

fn hex(s: Status) -> String {
    s.colour().hex()
}

/// A transaction chip as the sink lane draws it, its mark drawn as a path: a
/// glyph of text would be 9 px at the swatch's size, under the back row's floor.
fn txn_chip(s: Status, mark: &'static str) -> Html {
    html! {
        <>
            <rect x="1.5" y="4.5" width="21" height="15" rx="4" fill={s.colour().tint(0.75).hex()} stroke={hex(s)} stroke-width="1.8" />
            <path d={mark} fill="none" stroke="#101720" stroke-width="2.2" stroke-linecap="round" stroke-linejoin="round" />
        </>
    }
}

/// ◴ (pre-committed: waiting for the checkpoint), ✓ (committed), ✕ (aborted).
const MARK_PENDING: &str = "M12 8.2a3.8 3.8 0 1 0 .01 0M12 8.2V12h-3.8";
const MARK_DONE: &str = "M7.5 12.2l3 3 6-6.4";
const MARK_CROSS: &str = "M8.5 8.5l7 7M15.5 8.5l-7 7";

/// Properties of [`Legend`].
#[derive(Properties, PartialEq, Default)]
pub struct LegendProps {
    /// Replayed records are on the stage: their entry is shown (only then, so
    /// the legend keeps to one line at projector sizes the rest of the time).
    #[prop_or_default]
    pub replaying: bool,
}

/// Whether `view` has records on its channels that are replays (read again
/// after a restore, the engine's [`engine::view::WorldView::replay`]).
pub fn replaying(view: &engine::view::WorldView) -> bool {
    use engine::view::{ElementView, ReplayView};
    !view.replay.is_empty()
        && view.channels.iter().any(|c| {
            c.out_queue
                .iter()
                .chain(c.wire.iter().map(|w| &w.element))
                .chain(&c.queue)
                .any(|e| matches!(e, ElementView::Record { record, .. } if ReplayView::covers(&view.replay, &record.origin)))
        })
}

#[component]
pub fn Legend(props: &LegendProps) -> Html {
    let lang = use_lang().lang;
    let item = |swatch: Html, msg: Msg, key: &'static str| {
        html! {
            <li class="legend__item" data-legend={key}>
                <svg class="legend__swatch" viewBox="0 0 24 24" aria-hidden="true" focusable="false">{ swatch }</svg>
                <span>{ lang.t(msg) }</span>
            </li>
        }
    };
    let epochs = EPOCHS.iter().zip(PATTERNS).enumerate().map(|(i, (c, p))| {
        let x = (1 + 13 * i).to_string();
        html! {
            <>
                <rect x={x.clone()} y="6" width="11" height="11" rx="2.5" fill={c.hex()} stroke={palette::OUTLINE} stroke-width="0.8" />
                if p != Pattern::Plain {
                    <rect {x} y="6" width="11" height="11" rx="2.5" fill={format!("url(#epoch-pattern-{i})")} />
                }
            </>
        }
    });
    let blocked = Status::Blocked.colour();
    html! {
        <div class="legend" role="group" aria-label={lang.t(Msg::LegendLabel)}>
            <ul class="legend__list">
                <li class="legend__item" data-legend="epoch">
                    <svg class="legend__swatch legend__swatch--wide" viewBox={format!("0 0 {} 24", 13 * EPOCHS.len() + 1)}
                         aria-hidden="true" focusable="false">
                        { for epochs }
                    </svg>
                    <span>{ lang.t(Msg::LegendEpoch) }</span>
                </li>
                { item(html! {
                    <>
                        <rect x="9.5" y="7" width="5" height="16" rx="1.5" fill={palette::BARRIER.hex()} />
                        <rect x="5" y="0.5" width="14" height="6" rx="1.5" fill={palette::BARRIER.hex()} />
                    </>
                }, Msg::LegendBarrier, "barrier") }
                { item(html! { <rect x="9.5" y="2.5" width="5" height="19" rx="1.5" fill="#ffffff" stroke={palette::BARRIER.hex()} stroke-width="1.8" stroke-dasharray="3 2" /> }, Msg::LegendUnaligned, "unaligned") }
                { item(html! {
                    <>
                        <rect x="2" y="8" width="20" height="9" rx="2" fill={blocked.tint(0.86).hex()} stroke={blocked.hex()} stroke-width="1.5" />
                        <path d="M5 17 11 8M10 17l6-9M15 17l5-7.5" stroke={blocked.hex()} stroke-width="1.5" />
                        <rect x="8" y="1" width="8" height="7" rx="1.5" fill={blocked.hex()} />
                    </>
                }, Msg::LegendBlocked, "blocked") }
                { item(html! {
                    <>
                        <rect x="6" y="6" width="12" height="12" rx="2.5" fill={EPOCHS[0].hex()} />
                        <rect x="2.5" y="2.5" width="19" height="19" rx="4" fill="none" stroke={hex(Status::Persisted)} stroke-width="2.2" stroke-dasharray="3 2" />
                    </>
                }, Msg::LegendPersisted, "persisted") }
                if props.replaying {
                { item(html! {
                    <>
                        <rect x="4" y="6" width="14" height="14" rx="2.5" fill={EPOCHS[0].hex()} stroke={palette::REPLAY.hex()} stroke-width="2.2" />
                        <circle cx="18" cy="6" r="5.5" fill={palette::REPLAY.hex()} />
                        // ↺
                        <path d="M20.2 5.2a2.4 2.4 0 1 1-.9-1.9M19.6 1.8l-.3 1.6 1.6.3" fill="none" stroke="#ffffff" stroke-width="1.4" stroke-linecap="round" stroke-linejoin="round" />
                    </>
                }, Msg::LegendReplayed, "replayed") }
                }
                { item(txn_chip(Status::PreCommitted, MARK_PENDING), Msg::LegendPreCommitted, "pre-committed") }
                { item(txn_chip(Status::Committed, MARK_DONE), Msg::LegendCommitted, "committed") }
                { item(txn_chip(Status::Aborted, MARK_CROSS), Msg::LegendAborted, "aborted") }
                { item(html! {
                    <>
                        <rect x="2" y="4" width="20" height="16" rx="3" fill={Status::Failure.colour().tint(0.88).hex()} stroke={hex(Status::Failure)} stroke-width="2.2" />
                        <path d={MARK_CROSS} fill="none" stroke={hex(Status::Failure)} stroke-width="2.4" stroke-linecap="round" />
                    </>
                }, Msg::LegendFailure, "failure") }
                <li class="legend__hint stage__hint">{ lang.t(Msg::StageHint) }</li>
            </ul>
        </div>
    }
}
