//! The legend under the stage: the visual vocabulary of the lab, drawn with the
//! same design tokens (`--record`, `--barrier`, `--epoch-N`, …) the stage will use.

use yew::prelude::*;

use crate::hooks::use_lang;
use crate::i18n::Msg;

/// How many epoch colours the legend shows (the palette in `style.css` has more).
const LEGEND_EPOCHS: u8 = 4;

#[component]
pub fn Legend() -> Html {
    let lang = use_lang().lang;
    let item = |swatch: Html, msg: Msg| {
        html! {
            <li class="legend__item">
                <svg class="legend__swatch" viewBox="0 0 24 24" aria-hidden="true" focusable="false">{ swatch }</svg>
                <span>{ lang.t(msg) }</span>
            </li>
        }
    };
    let square = |fill: &str| html! { <rect x="6" y="6" width="12" height="12" rx="2.5" fill={fill.to_string()} /> };
    let chip = |class: &'static str| html! { <rect class={class} x="3" y="5" width="18" height="14" rx="4" /> };
    let epochs = (0..LEGEND_EPOCHS).map(|e| {
        let x = (2 + 14 * u32::from(e)).to_string();
        html! {
            <>
                <rect x={x.clone()} y="6" width="11" height="11" rx="2.5" fill={format!("var(--epoch-{e})")} />
                if e % 4 != 0 {
                    <rect {x} y="6" width="11" height="11" rx="2.5" fill={format!("url(#epoch-pattern-{})", e % 4)} />
                }
            </>
        }
    });
    html! {
        <div class="legend" role="group" aria-label={lang.t(Msg::LegendLabel)}>
            <ul class="legend__list">
                { item(square("var(--record)"), Msg::LegendRecord) }
                <li class="legend__item">
                    <svg class="legend__swatch legend__swatch--wide" viewBox={format!("0 0 {} 24", 14 * u32::from(LEGEND_EPOCHS))}
                         aria-hidden="true" focusable="false">
                        { for epochs }
                    </svg>
                    <span>{ lang.t(Msg::LegendEpoch) }</span>
                </li>
                { item(html! { <rect x="9.5" y="2" width="5" height="20" rx="1.5" fill="var(--barrier)" /> }, Msg::LegendBarrier) }
                { item(html! { <rect x="9.5" y="2.5" width="5" height="19" rx="1.5" fill="#ffffff" stroke="var(--barrier)" stroke-width="1.8" stroke-dasharray="3 2" /> }, Msg::LegendUnaligned) }
                { item(html! {
                    <>
                        <rect x="3" y="7" width="18" height="10" rx="2" fill="var(--blocked-bg)" stroke="var(--blocked)" stroke-width="1.5" />
                        <path d="M6 17 12 7M11 17l6-10M16 17l4-6.5" stroke="var(--blocked)" stroke-width="1.5" />
                    </>
                }, Msg::LegendBlocked) }
                { item(chip("chip chip--persisted"), Msg::LegendPersisted) }
                { item(chip("chip chip--pre-committed"), Msg::LegendPreCommitted) }
                { item(chip("chip chip--committed"), Msg::LegendCommitted) }
                { item(chip("chip chip--aborted"), Msg::LegendAborted) }
                { item(html! {
                    <path d="M13.5 2.5 5 13.5h6l-1.5 8 9-11.5h-6z" fill="var(--failure)" />
                }, Msg::LegendFailure) }
            </ul>
        </div>
    }
}
