//! The interface language as a Yew context: the root ([`crate::Lab`]) provides it,
//! every component reads it with [`use_lang`].

use yew::prelude::*;

use crate::i18n::Lang;

/// The interface language and how to change it; provided by [`crate::Lab`].
#[derive(Clone, Debug, PartialEq)]
pub struct LangContext {
    /// The language every string is shown in.
    pub lang: Lang,
    /// Switches the whole page (and the URL's `?lang=`) to another language.
    pub set_lang: Callback<Lang>,
}

/// The current [`LangContext`]. Only valid below [`crate::Lab`].
#[hook]
pub fn use_lang() -> LangContext {
    use_context::<LangContext>().expect("use_lang() is called below <Lab>")
}
