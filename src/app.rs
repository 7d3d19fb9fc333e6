//! The root component and the language context.
//!
//! [`App`] owns the interface language: it starts from [`document::initial_lang`]
//! and, whenever it changes, an effect brings the document along
//! ([`document::apply_lang`]). Components read the language through
//! [`use_lang`] rather than props, so a deep part (a narration line, a tooltip)
//! needs no plumbing. Later issues add the playback reducer beside it.

use yew::prelude::*;

use crate::components::{Masthead, SidePanel, Stage, Toolbar};
use crate::document;
use crate::i18n::Lang;

/// The interface language and how to change it; provided by [`App`].
#[derive(Clone, Debug, PartialEq)]
pub struct LangContext {
    /// The language every string is shown in.
    pub lang: Lang,
    /// Switches the whole page (and the URL's `?lang=`) to another language.
    pub set_lang: Callback<Lang>,
}

/// The current [`LangContext`]. Only valid below [`App`].
#[hook]
pub fn use_lang() -> LangContext {
    use_context::<LangContext>().expect("use_lang() is called below <App>")
}

/// The whole page: masthead, toolbar, then the stage beside the side panel.
#[component]
pub fn App() -> Html {
    let lang = use_state_eq(document::initial_lang);
    use_effect_with(*lang, |lang| document::apply_lang(*lang));

    let set_lang = {
        let setter = lang.setter();
        use_callback((), move |next: Lang, _: &()| setter.set(next))
    };
    let context = LangContext {
        lang: *lang,
        set_lang,
    };

    html! {
        <ContextProvider<LangContext> {context}>
            <div class="app">
                <Masthead />
                <Toolbar />
                <main class="workspace">
                    <Stage />
                    <SidePanel />
                </main>
            </div>
        </ContextProvider<LangContext>>
    }
}
