//! The stage: the SVG canvas the job graph will be drawn on.
//!
//! For now it shows its empty state: the canvas grid, a faint sketch of a
//! three-operator job (one lane per parallel subtask, records tinted by epoch, a
//! barrier in each channel) and a centred hint, with the [`Legend`] beneath.

use yew::prelude::*;

use crate::app::use_lang;
use crate::components::Legend;
use crate::i18n::Msg;

#[component]
pub fn Stage() -> Html {
    let lang = use_lang().lang;
    html! {
        <section class="stage card" aria-label={lang.t(Msg::StageLabel)}>
            <h2 class="card__title">{ lang.t(Msg::StageLabel) }</h2>
            <div class="stage__viewport">
                <svg class="stage__canvas" width="100%" height="100%" aria-hidden="true" focusable="false">
                    <defs>
                        <pattern id="stage-grid-minor" width="24" height="24" patternUnits="userSpaceOnUse">
                            <path d="M24 0H0V24" fill="none" class="stage__grid-minor" />
                        </pattern>
                        <pattern id="stage-grid" width="120" height="120" patternUnits="userSpaceOnUse">
                            <rect width="120" height="120" fill="url(#stage-grid-minor)" />
                            <path d="M120 0H0V120" fill="none" class="stage__grid-major" />
                        </pattern>
                    </defs>
                    <rect width="100%" height="100%" fill="url(#stage-grid)" />
                </svg>
                <div class="stage__empty">
                    { ghost_job() }
                    <p class="stage__empty-title">{ lang.t(Msg::StageEmptyTitle) }</p>
                    <p class="stage__empty-hint">{ lang.t(Msg::StageEmptyHint) }</p>
                </div>
            </div>
            <Legend />
        </section>
    }
}

/// A faint sketch of Source → Map → Sink with two subtasks each. Operator names are
/// Flink's own words, the same in both languages.
fn ghost_job() -> Html {
    const BOX_W: f32 = 130.0;
    const XS: [f32; 3] = [10.0, 235.0, 460.0];
    const LANES_Y: [f32; 2] = [74.0, 116.0];
    let operators = ["Source", "Map", "Sink"].iter().zip(XS).map(|(name, x)| {
        html! {
            <g>
                <text class="ghost__label" x={(x + BOX_W / 2.0).to_string()} y="28" text-anchor="middle">{ *name }</text>
                <rect class="ghost__operator" x={x.to_string()} y="40" width={BOX_W.to_string()} height="110" rx="12" />
                { for LANES_Y.iter().map(|y| html! {
                    <rect class="ghost__lane" x={(x + 12.0).to_string()} y={(y - 16.0).to_string()}
                          width={(BOX_W - 24.0).to_string()} height="32" rx="7" />
                }) }
            </g>
        }
    });
    // Tokens in the channels: (x, lane, kind) where kind is an epoch or a barrier.
    let tokens: [(f32, usize, Option<u8>); 10] = [
        (152.0, 0, Some(1)),
        (172.0, 0, None),
        (188.0, 0, Some(0)),
        (208.0, 0, Some(0)),
        (158.0, 1, Some(1)),
        (178.0, 1, Some(1)),
        (200.0, 1, None),
        (386.0, 0, Some(0)),
        (402.0, 1, None),
        (420.0, 1, Some(0)),
    ];
    let channels = [0usize, 1].into_iter().flat_map(|hop| {
        LANES_Y.iter().map(move |y| {
            let (x1, x2) = (XS[hop] + BOX_W, XS[hop + 1]);
            html! {
                <line class="ghost__channel" x1={x1.to_string()} y1={y.to_string()}
                      x2={(x2 - 4.0).to_string()} y2={y.to_string()} marker-end="url(#ghost-arrow)" />
            }
        })
    });
    let tokens = tokens.iter().map(|&(x, lane, kind)| {
        let y = LANES_Y[lane];
        match kind {
            Some(epoch) => html! {
                <rect class="ghost__record" x={(x - 5.0).to_string()} y={(y - 5.0).to_string()}
                      width="10" height="10" rx="2" fill={format!("var(--epoch-{epoch})")} />
            },
            None => html! {
                <rect class="ghost__barrier" x={(x - 2.0).to_string()} y={(y - 13.0).to_string()}
                      width="4" height="26" rx="1.5" />
            },
        }
    });
    html! {
        <svg class="ghost" viewBox="0 0 600 160" aria-hidden="true" focusable="false">
            <defs>
                <marker id="ghost-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
                    <path d="M0 1 9 5 0 9z" class="ghost__arrowhead" />
                </marker>
            </defs>
            { for channels }
            { for operators }
            { for tokens }
        </svg>
    }
}
