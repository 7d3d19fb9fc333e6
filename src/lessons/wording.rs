//! The lesson tools' wording, in `assets/i18n/lessons.json` (kept apart from the
//! page's `ui.json` so that the two files can be edited independently).
//!
//! Pure; the test checks that the file has every key the code uses, in both
//! languages, and no key it does not know.

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::i18n::{Book, Lang, WordingError};

/// The wording file, compiled in for native code and the tests (the page is
/// given it at run time: [`LESSONS`], `src/data.rs`).
#[cfg(any(feature = "bundled", not(target_arch = "wasm32")))]
pub const LESSONS_JSON: &str = include_str!("../../assets/i18n/lessons.json");

/// `lessons.json`'s table.
pub static LESSONS: Book<BTreeMap<String, Entry>> = Book::new(
    "i18n/lessons.json",
    crate::i18n::compiled_in!(LESSONS_JSON),
    parse,
);

/// Every key the code looks up.
pub const KEYS: &[&str] = &[
    "lessons_label",
    "tour_start",
    "tour_label",
    "tour_prev",
    "tour_next",
    "tour_exit",
    "tour_step_of",
    "tour_predict",
    "tour_reveal",
    "tour_choices_label",
    "tour_choice_right",
    "tour_choice_wrong",
    "tour_verdict_right",
    "tour_verdict_wrong",
    "tour_keys",
    "tour_unreachable",
    "glossary_button",
    "glossary_heading",
    "share_button",
    "share_done",
    "share_bad_link",
    "share_bad_link_after",
    "export_button",
    "import_label",
    "import_error",
    "dismiss",
    "restore_saved",
    "editor_heading",
    "editor_button",
    "editor_error",
    "editor_parallelism",
    "editor_process_ms",
    "editor_partitioning",
    "editor_latency_ms",
    "editor_mode",
    "editor_unaligned",
    "editor_interval_ms",
    "editor_timeout_ms",
    "editor_min_pause_ms",
    "editor_max_concurrent",
    "editor_tolerable_failures",
    "editor_restart_strategy",
    "editor_attempts",
    "editor_delay_ms",
    "editor_max_failures",
    "editor_restart_interval_ms",
    "editor_initial_ms",
    "editor_max_ms",
    "editor_crashes",
    "editor_crashes_hint",
    "pair_compare",
    "pair_compare_hint",
    "pair_stop",
    "pair_heading",
    "pair_key",
    "pair_verdict",
    "pair_same",
    "pair_duplicates",
    "pair_missing",
    "pair_lost",
    "pair_all_equal",
    "pair_some_differ",
    "pair_nothing_yet",
    "tour_keys_touch",
    "tour_sheet_fold",
    "tour_sheet_unfold",
    "tour_invite_mode",
    "tour_invite_lesson",
    // The notes' callouts.
    "notes_label",
    "notes_say",
    "notes_flink_does",
    // The line naming an entry's sources.
    "sources_label",
];

/// One text of the file in every language.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    zh: String,
    #[serde(rename = "zh-Hant", default)]
    zh_hant: Option<String>,
    en: String,
}

/// Parses the file; the error names the offending key.
fn parse(json: &str) -> Result<BTreeMap<String, Entry>, WordingError> {
    const FILE: &str = "lessons.json";
    let raw: BTreeMap<String, serde_json::Value> =
        serde_json::from_str(json).map_err(|e| WordingError::json(FILE, &e))?;
    let mut out = BTreeMap::new();
    for (key, value) in raw {
        if key.starts_with('_') {
            continue;
        }
        if !KEYS.contains(&key.as_str()) {
            return Err(WordingError::UnknownKey { file: FILE, key });
        }
        let e = Entry::deserialize(&value)
            .map_err(|e| WordingError::entry(FILE, format!("\"{key}\""), e))?;
        if e.zh.trim().is_empty() || e.en.trim().is_empty() {
            return Err(WordingError::EmptyTranslation { file: FILE, key });
        }
        out.insert(key, e);
    }
    if let Some(missing) = KEYS.iter().find(|k| !out.contains_key(**k)) {
        return Err(WordingError::MissingKey {
            file: FILE,
            key: missing.to_string(),
        });
    }
    Ok(out)
}

/// The text of `key` in `lang` (the key itself if the file lacks it, which the
/// test rules out; nothing before the file is here).
pub fn t(key: &'static str, lang: Lang) -> &'static str {
    let Some(table) = LESSONS.get() else {
        return "";
    };
    table
        .get(key)
        .map_or(key, |e| lang.pick(&e.zh, e.zh_hant.as_deref(), &e.en))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shipped_wording_is_complete_in_both_languages() {
        let table = parse(LESSONS_JSON).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(table.len(), KEYS.len());
        assert_eq!(t("tour_next", Lang::En), "Next step");
        assert_eq!(t("tour_next", Lang::Zh), "下一步");
    }

    #[test]
    fn a_typo_names_the_key() {
        assert!(parse(r#"{"tour_nxt": {"zh": "a", "en": "b"}}"#)
            .unwrap_err()
            .to_string()
            .contains("tour_nxt"));
        assert!(parse(r#"{}"#)
            .unwrap_err()
            .to_string()
            .contains("missing key"));
    }
}
