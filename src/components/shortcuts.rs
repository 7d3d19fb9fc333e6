//! The `?` overlay: every keyboard shortcut, in the current language.

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
    let rows = [
        ("Space", Msg::ShortcutPlay),
        ("→", Msg::ShortcutStepForward),
        ("←", Msg::ShortcutStepBack),
        ("−", Msg::ShortcutSlower),
        ("+", Msg::ShortcutFaster),
        ("C", Msg::ShortcutCheckpoint),
        ("?", Msg::ShortcutHelp),
        ("Esc", Msg::ShortcutClose),
    ];
    html! {
        <div class="overlay" id="shortcuts" role="dialog" aria-modal="true" aria-labelledby="shortcuts-title">
            <div class="overlay__card">
                <div class="popover__head">
                    <h2 id="shortcuts-title">{ lang.t(Msg::ShortcutsTitle) }</h2>
                    <button type="button" class="text-button" ref={close_ref} onclick={close}>{ lang.t(Msg::Close) }</button>
                </div>
                <dl class="shortcuts">
                    { for rows.iter().map(|(k, m)| html! {
                        <>
                            <dt><kbd>{ *k }</kbd></dt>
                            <dd>{ lang.t(*m) }</dd>
                        </>
                    }) }
                </dl>
            </div>
        </div>
    }
}
