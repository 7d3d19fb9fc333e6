//! The wording of the lesson extras: the comparison charts, the
//! key-group strip, the QR code and short link, the slide export — in
//! `assets/i18n/extras.json`, apart from `ui.json` and `lessons.json` so that each
//! file can be edited on its own.
//!
//! Pure. Unlike `lessons.json`, the keys are not listed in code twice: every key
//! of the file is a key, and a test renders every chart and panel in both
//! languages and fails on a placeholder left over or a key missing.

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::i18n::{Book, Lang, WordingError};

/// The wording file, compiled in for native code and the tests (the page is
/// given it at run time: [`EXTRAS`], `src/data.rs`).
#[cfg(any(feature = "bundled", not(target_arch = "wasm32")))]
pub const EXTRAS_JSON: &str = include_str!("../../assets/i18n/extras.json");

/// `extras.json`'s table.
pub static EXTRAS: Book<BTreeMap<String, Pair>> = Book::new(
    "i18n/extras.json",
    crate::i18n::compiled_in!(EXTRAS_JSON),
    table,
);

/// One text of the file in every language.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pair {
    zh: String,
    #[serde(rename = "zh-Hant", default)]
    zh_hant: Option<String>,
    en: String,
}

/// The table, or the first problem (the key named).
fn table(json: &str) -> Result<BTreeMap<String, Pair>, WordingError> {
    const FILE: &str = "extras.json";
    let raw: BTreeMap<String, serde_json::Value> =
        serde_json::from_str(json).map_err(|e| WordingError::json(FILE, &e))?;
    raw.into_iter()
        .filter(|(k, _)| !k.starts_with('_'))
        .map(|(k, v)| {
            let p = Pair::deserialize(&v)
                .map_err(|e| WordingError::entry(FILE, format!("\"{k}\""), e))?;
            if p.zh.trim().is_empty() || p.en.trim().is_empty() {
                return Err(WordingError::EmptyTranslation { file: FILE, key: k });
            }
            Ok((k, p))
        })
        .collect()
}

/// The text of `key` in `lang`. A key the file lacks is shown as `⟨key⟩` (and
/// fails the test that renders every text); nothing before the file is here.
pub fn x(key: &str, lang: Lang) -> String {
    let Some(t) = EXTRAS.get() else {
        return String::new();
    };
    t.get(key).map_or_else(
        || format!("⟨{key}⟩"),
        |p| lang.pick(&p.zh, p.zh_hant.as_deref(), &p.en).to_string(),
    )
}

/// [`x`] with `{name}` placeholders filled in.
pub fn xf(key: &str, lang: Lang, args: &[(&str, &str)]) -> String {
    args.iter()
        .fold(x(key, lang), |s, (k, v)| s.replace(&format!("{{{k}}}"), v))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_file_parses_and_every_entry_has_both_languages() {
        let t = table(EXTRAS_JSON).unwrap_or_else(|e| panic!("{e}"));
        assert!(t.len() > 40);
        assert_eq!(x("qr_button", Lang::En), "QR code");
        assert_eq!(x("no_such_key", Lang::Zh), "⟨no_such_key⟩");
        assert!(table(r#"{"a": {"zh": "", "en": "b"}}"#)
            .unwrap_err()
            .to_string()
            .contains("\"a\""));
        // The placeholders of each entry are the same in both languages.
        let holes = |s: &str| {
            let mut v: Vec<String> = s
                .split('{')
                .skip(1)
                .filter_map(|p| p.split_once('}').map(|(h, _)| h.to_string()))
                .collect();
            v.sort();
            v
        };
        for (k, p) in &t {
            assert_eq!(holes(&p.zh), holes(&p.en), "{k}");
        }
    }
}
