//! The QR code of the current moment: a dialog, big enough to
//! project, with the short link under it; when even the short link is not
//! available (an edited or imported scenario) and the full share link is too
//! long to scan, it says so instead of drawing an unreadable code. The links
//! point at the page's own origin and path (a school server, a laptop's LAN
//! address), read from the address bar.

use yew::prelude::*;

use crate::hooks::use_lang;
use crate::i18n::extras::{x, xf};
use crate::share::qr::{self, Qr};

/// The page's origin and path (`http://192.168.1.20:8080/lab/`).
pub fn page_base() -> String {
    web_sys::window()
        .and_then(|w| {
            let l = w.location();
            Some(format!("{}{}", l.origin().ok()?, l.pathname().ok()?))
        })
        .unwrap_or_default()
}

/// Properties of [`QrDialog`].
#[derive(Properties, PartialEq)]
pub struct QrDialogProps {
    /// The short link, if the moment has one.
    pub short: Option<AttrValue>,
    /// The full share link (scenario and interventions in the fragment).
    pub full: AttrValue,
    /// The learner made interventions (only the full link has them).
    #[prop_or_default]
    pub has_interventions: bool,
    /// Closes the dialog.
    pub on_close: Callback<()>,
}

/// The dialog; see the module documentation.
#[component]
pub fn QrDialog(props: &QrDialogProps) -> Html {
    let lang = use_lang().lang;
    let close_ref = use_node_ref();
    {
        let close_ref = close_ref.clone();
        use_effect_with((), move |_| {
            if let Some(b) = close_ref.cast::<web_sys::HtmlElement>() {
                let _ = b.focus();
            }
        });
    }
    // The short link when there is one and no intervention would be lost;
    // otherwise the full link.
    let link = match (&props.short, props.has_interventions) {
        (Some(s), false) => s.clone(),
        _ => props.full.clone(),
    };
    let drawn = qr::qr(&link);
    let onkeydown = {
        let close = props.on_close.clone();
        Callback::from(move |e: KeyboardEvent| {
            if e.key() == "Escape" {
                close.emit(());
            }
        })
    };
    html! {
        <div class="overlay" id="qr-dialog" role="dialog" aria-modal="true" aria-labelledby="qr-title" {onkeydown}>
            <div class="overlay__card qr">
                <div class="popover__head">
                    <h2 id="qr-title">{ x("qr_heading", lang) }</h2>
                    <button type="button" class="text-button" id="qr-close" ref={close_ref}
                            onclick={props.on_close.reform(|_: MouseEvent| ())}>{ x("qr_close", lang) }</button>
                </div>
                { match &drawn {
                    Qr::Code(m) => html! {
                        <svg class="qr__code" id="qr-code" viewBox={format!("0 0 {0} {0}", m.side())}
                             data-link={link.clone()} data-version={m.version.to_string()}
                             role="img" aria-label={format!("{}: {}", x("qr_heading", lang), link)}
                             shape-rendering="crispEdges">
                            <rect width="100%" height="100%" fill="#ffffff" />
                            <path d={m.path()} fill="#000000" />
                        </svg>
                    },
                    Qr::TooLong(n) => html! {
                        <p class="qr__too-long" id="qr-too-long" role="status">
                            { xf("qr_too_long", lang, &[("n", &n.to_string())]) }
                        </p>
                    },
                } }
                if let Some(s) = &props.short {
                    <p class="qr__link"><strong>{ x("qr_short", lang) }</strong>{ " " }
                        <a id="qr-short-link" href={s.clone()}>{ s.clone() }</a></p>
                    <p class="qr__note">{ x("qr_short_note", lang) }</p>
                }
                <p class="qr__link qr__link--full"><strong>{ x("qr_full", lang) }</strong>{ " " }
                    <a id="qr-full-link" href={props.full.clone()}>{ format!("{} … ({})", props.full.chars().take(48).collect::<String>(), props.full.chars().count()) }</a></p>
            </div>
        </div>
    }
}
