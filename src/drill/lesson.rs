//! A lesson's name as the drill shows it. Its own file because it reads the
//! lesson data ([`crate::data`]), which itself serves the drill's questions:
//! the drill's root stays below the data it is loaded by.

use crate::i18n::Lang;

/// The lesson's title in `lang` (its id when it has none): the drill names
/// lessons as the lesson menu does.
pub fn lesson_name(name: &str, lang: Lang) -> String {
    crate::data::lesson_titles()
        .iter()
        .find(|(n, _)| *n == name)
        .and_then(|(_, t)| t.as_ref())
        .map_or_else(
            || name.to_string(),
            |t| lang.pick(&t.zh, t.zh_hant.as_deref(), &t.en).to_string(),
        )
}
