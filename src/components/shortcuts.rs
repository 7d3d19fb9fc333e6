//! The `?` overlay: the page's one key map, for keyboards and presentation
//! clickers (which send PageDown / PageUp and `.` / `b`), in the current
//! language; `P` opens the presenter window (src/presenter/). The keys themselves are handled in `app.rs` (and, inside a tour,
//! by the tour's listener in `hooks/lessons.rs`).

use yew::prelude::*;

use crate::hooks::use_lang;
use crate::i18n::Msg;

#[derive(Properties, PartialEq)]
pub struct ShortcutsProps {
    pub on_close: Callback<()>,
}

#[component]
pub fn ShortcutsOverlay(props: &ShortcutsProps) -> Html {
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
    let close = {
        let cb = props.on_close.clone();
        Callback::from(move |_: MouseEvent| cb.emit(()))
    };
    let rows: [(&[&str], String); 10] = [
        (&["Space"], lang.t(Msg::ShortcutPlay).to_string()),
        (&["→"], lang.t(Msg::ShortcutStepForward).to_string()),
        (&["←"], lang.t(Msg::ShortcutStepBack).to_string()),
        (&["PageDown"], lang.t(Msg::ShortcutNextMoment).to_string()),
        (&["PageUp"], lang.t(Msg::ShortcutPrevMoment).to_string()),
        (&[".", "B"], lang.t(Msg::ShortcutPause).to_string()),
        (&["−", "+"], lang.t(Msg::ShortcutSpeed).to_string()),
        (&["C"], lang.t(Msg::ShortcutCheckpoint).to_string()),
        (&["P"], crate::presenter::notes::label("shortcut", lang)),
        (&["?", "Esc"], lang.t(Msg::ShortcutHelp).to_string()),
    ];
    html! {
        <div class="overlay" id="shortcuts" role="dialog" aria-modal="true" aria-labelledby="shortcuts-title">
            <div class="overlay__card">
                <div class="popover__head">
                    <h2 id="shortcuts-title">{ lang.t(Msg::ShortcutsTitle) }</h2>
                    <button type="button" class="text-button" ref={close_ref} onclick={close}>{ lang.t(Msg::Close) }</button>
                </div>
                <dl class="shortcuts">
                    { for rows.iter().map(|(keys, m)| html! {
                        <>
                            <dt>{ for keys.iter().map(|k| html! { <kbd>{ *k }</kbd> }) }</dt>
                            <dd>{ m.clone() }</dd>
                        </>
                    }) }
                </dl>
                <p class="shortcuts__note">{ lang.t(Msg::ShortcutTourNote) }</p>
            </div>
        </div>
    }
}
