//! The presenter's wording and every lesson's teaching notes, as data the page
//! fetches: `assets/presenter/presenter.json` (the presenter window's labels,
//! a key → text table like `extras.json`) and `assets/presenter/notes.json`
//! (per lesson: what to say, what to ask the class, what to point at on the
//! stage, and where what they say about Flink comes from). Both are wording
//! files of the data manifest (`i18n/presenter.json`, `i18n/notes.json`,
//! registered in `src/data.rs`). Pure.

use std::collections::BTreeMap;

use engine::scenario::Localized;
use serde::Deserialize;

use crate::i18n::{Book, Lang, WordingError};

/// The labels' file, compiled in for native code and the tests.
#[cfg(any(feature = "bundled", not(target_arch = "wasm32")))]
pub const LABELS_JSON: &str = include_str!("../../assets/presenter/presenter.json");
/// The teaching notes' file, compiled in for native code and the tests.
#[cfg(any(feature = "bundled", not(target_arch = "wasm32")))]
pub const NOTES_JSON: &str = include_str!("../../assets/presenter/notes.json");

/// `presenter.json`'s table.
pub static LABELS: Book<BTreeMap<String, Localized>> = Book::new(
    "i18n/presenter.json",
    crate::i18n::compiled_in!(LABELS_JSON),
    labels,
);

/// `notes.json`'s table, by lesson.
pub static NOTES: Book<BTreeMap<String, LessonNotes>> = Book::new(
    "i18n/notes.json",
    crate::i18n::compiled_in!(NOTES_JSON),
    notes,
);

/// What a lecturer says, asks and shows in one lesson.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LessonNotes {
    /// The built-in lesson.
    pub lesson: String,
    /// What to say, a line each.
    pub say: Vec<Localized>,
    /// What to ask the class.
    pub ask: Localized,
    /// What to point at on the stage.
    pub point: Localized,
    /// Where what the notes say about Flink comes from (see
    /// [`crate::lessons::sources`]).
    pub sources: Vec<String>,
}

/// The file's shape.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NotesFile {
    /// What the file is, for its editors.
    #[serde(rename = "_readme", default)]
    _readme: Option<String>,
    notes: Vec<LessonNotes>,
}

fn blank(l: &Localized) -> bool {
    l.zh.trim().is_empty() || l.en.trim().is_empty()
}

/// The labels, or the first problem (the key named).
fn labels(json: &str) -> Result<BTreeMap<String, Localized>, WordingError> {
    const FILE: &str = "presenter.json";
    let raw: BTreeMap<String, serde_json::Value> =
        serde_json::from_str(json).map_err(|e| WordingError::json(FILE, &e))?;
    raw.into_iter()
        .filter(|(k, _)| !k.starts_with('_'))
        .map(|(k, v)| {
            let l = Localized::deserialize(&v)
                .map_err(|e| WordingError::entry(FILE, format!("\"{k}\""), e))?;
            if blank(&l) {
                return Err(WordingError::EmptyTranslation { file: FILE, key: k });
            }
            Ok((k, l))
        })
        .collect()
}

/// The notes by lesson, or the first problem (`notes[3].say[1]`, an unknown
/// or repeated lesson).
fn notes(json: &str) -> Result<BTreeMap<String, LessonNotes>, WordingError> {
    const FILE: &str = "notes.json";
    let file: NotesFile = serde_json::from_str(json).map_err(|e| WordingError::json(FILE, &e))?;
    let mut out = BTreeMap::new();
    for (i, n) in file.notes.into_iter().enumerate() {
        let at = |field: &str| format!("notes[{i}].{field}");
        if !engine::runner::NAMES.contains(&n.lesson.as_str()) {
            return Err(WordingError::entry(
                FILE,
                at("lesson"),
                format!("{:?} is not a built-in lesson", n.lesson),
            ));
        }
        if n.say.is_empty() {
            return Err(WordingError::entry(FILE, at("say"), "says nothing"));
        }
        if let Some(j) = n.say.iter().position(blank) {
            return Err(WordingError::EmptyTranslation {
                file: FILE,
                key: at(&format!("say[{j}]")),
            });
        }
        for (field, l) in [("ask", &n.ask), ("point", &n.point)] {
            if blank(l) {
                return Err(WordingError::EmptyTranslation {
                    file: FILE,
                    key: at(field),
                });
            }
        }
        if out.contains_key(&n.lesson) {
            return Err(WordingError::entry(
                FILE,
                at("lesson"),
                format!("{:?} has notes twice", n.lesson),
            ));
        }
        out.insert(n.lesson.clone(), n);
    }
    Ok(out)
}

/// The presenter window's label `key` in `lang`; `⟨key⟩` for a key the file
/// lacks (which the test rendering every label catches), empty before the
/// file is here.
pub fn label(key: &str, lang: Lang) -> String {
    let Some(t) = LABELS.get() else {
        return String::new();
    };
    t.get(key)
        .map_or_else(|| format!("⟨{key}⟩"), |l| lang.loc(l).to_string())
}

/// The teaching notes of `lesson`, once the file is here.
pub fn for_lesson(lesson: &str) -> Option<&'static LessonNotes> {
    NOTES.get()?.get(lesson)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every lesson of the page has notes, 3–6 lines of them with the question
    /// and the pointer, in every language.
    #[test]
    fn every_lesson_has_notes_in_every_language() {
        let t = notes(NOTES_JSON).unwrap_or_else(|e| panic!("{e}"));
        let missing: Vec<_> = engine::runner::NAMES
            .iter()
            .filter(|n| !t.contains_key(**n))
            .collect();
        assert!(missing.is_empty(), "no notes for {missing:?}");
        for n in t.values() {
            let lines = n.say.len() + 2;
            assert!((3..=6).contains(&lines), "{}: {lines} lines", n.lesson);
            for l in n.say.iter().chain([&n.ask, &n.point]) {
                assert!(
                    l.zh_hant.as_deref().is_some_and(|h| !h.trim().is_empty()),
                    "{}: {l:?} has no zh-Hant",
                    n.lesson
                );
            }
        }
        labels(LABELS_JSON).unwrap_or_else(|e| panic!("{e}"));
    }

    #[test]
    fn a_bad_notes_file_names_the_field() {
        let one = |lesson: &str, say: &str| {
            format!(
                r#"{{"notes": [{{"lesson": "{lesson}", "say": [{say}],
                   "ask": {{"zh": "问", "en": "ask"}}, "point": {{"zh": "指", "en": "point"}},
                   "sources": ["none"]}}]}}"#
            )
        };
        let line = r#"{"zh": "说", "en": "say"}"#;
        assert!(notes(&one("pv-count", line)).is_ok());
        let e = notes(&one("nope", line)).unwrap_err().to_string();
        assert!(e.contains("notes[0].lesson") && e.contains("nope"), "{e}");
        let e = notes(&one("pv-count", "")).unwrap_err().to_string();
        assert!(e.contains("notes[0].say"), "{e}");
        let e = notes(&one("pv-count", r#"{"zh": " ", "en": "say"}"#))
            .unwrap_err()
            .to_string();
        assert!(e.contains("notes[0].say[0]"), "{e}");
        let e = labels(r#"{"open": {"zh": "开"}}"#).unwrap_err().to_string();
        assert!(e.contains("\"open\""), "{e}");
    }
}
