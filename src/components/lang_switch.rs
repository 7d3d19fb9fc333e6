//! The 简 / 繁 / EN switch.

use yew::prelude::*;

use crate::hooks::use_lang;
use crate::i18n::{Lang, Msg};

/// The 简 / 繁 / EN switch: one real `<button>` per language, `aria-pressed` on
/// the current one. Each button shows the language's short name (its full name
/// is the tooltip) and has an accessible name in the *current* language that
/// says what pressing it does.
#[component]
pub fn LangSwitch() -> Html {
    let ctx = use_lang();
    let lang = ctx.lang;
    let options = Lang::ALL.into_iter().map(|option| {
        let is_current = option == lang;
        let action = if is_current {
            lang.t(Msg::LangIsCurrent)
        } else {
            match option {
                Lang::Zh => lang.t(Msg::LangSwitchToZh),
                Lang::ZhHant => lang.t(Msg::LangSwitchToZhHant),
                Lang::En => lang.t(Msg::LangSwitchToEn),
            }
        };
        // The accessible name starts with the visible short name (简, 繁, EN), so a
        // voice user can say what they see.
        let label = format!(
            "{} {} — {}",
            option.short_name(),
            option.native_name(),
            action
        );
        let onclick = {
            let set_lang = ctx.set_lang.clone();
            Callback::from(move |_: MouseEvent| set_lang.emit(option))
        };
        html! {
            <button
                type="button"
                class="lang-switch__option"
                data-lang={option.code()}
                aria-pressed={if is_current { "true" } else { "false" }}
                aria-label={label.clone()}
                title={label}
                {onclick}
            >
                <span lang={option.html_lang()}>{ option.short_name() }</span>
            </button>
        }
    });
    html! {
        <div class="lang-switch" role="group" aria-label={lang.t(Msg::LangGroupLabel)}>
            { for options }
        </div>
    }
}
