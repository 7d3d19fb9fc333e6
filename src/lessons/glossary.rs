//! The zh/en glossary of Flink terms, `assets/glossary.json` (a teacher's file).
//! The page fetches it when the glossary first opens, or in idle time before
//! ([`use_terms`], `src/data.rs`); native code and the tests compile it in.

use engine::scenario::Localized;
use serde::Deserialize;

use crate::i18n::{Book, WordingError};
use crate::lessons::notes::NotesCallout;

/// The glossary file, compiled in for native code and the tests.
#[cfg(any(feature = "bundled", not(target_arch = "wasm32")))]
pub const GLOSSARY_JSON: &str = include_str!("../../assets/glossary.json");

/// The glossary, parsed once it is here. Its name in the data manifest is
/// `i18n/glossary.json`, beside the other wording files.
pub static GLOSSARY: Book<Vec<Term>> = Book::new(
    "i18n/glossary.json",
    crate::i18n::compiled_in!(GLOSSARY_JSON),
    parse,
);

/// One term and a one-sentence explanation, in both languages.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Term {
    /// The term: 检查点 / checkpoint.
    pub term: Localized,
    /// What it means.
    pub explain: Localized,
    /// Where the explanation comes from (see [`crate::lessons::sources`]).
    #[serde(default)]
    pub sources: Vec<String>,
    /// Where the learners' notes say otherwise: their claim and what Flink does.
    #[serde(default)]
    pub notes: Option<NotesCallout>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    #[serde(rename = "_readme", default)]
    _readme: serde_json::Value,
    terms: Vec<Term>,
}

/// Parses a glossary file; the error names the entry (from 1) that is incomplete.
pub fn parse(json: &str) -> Result<Vec<Term>, WordingError> {
    const FILE: &str = "glossary.json";
    let file: File = serde_json::from_str(json).map_err(|e| WordingError::json(FILE, &e))?;
    for (i, t) in file.terms.iter().enumerate() {
        for (what, l) in [("term", &t.term), ("explain", &t.explain)] {
            if l.zh.trim().is_empty() || l.en.trim().is_empty() {
                return Err(WordingError::entry(
                    FILE,
                    format!("terms[{}].{what}", i + 1),
                    "needs both zh and en",
                ));
            }
        }
        if let Some(c) = &t.notes {
            c.check()
                .map_err(|e| WordingError::entry(FILE, format!("terms[{}]", i + 1), e))?;
        }
    }
    Ok(file.terms)
}

/// The glossary if it is here (empty if the file were broken, which the test
/// rules out).
pub fn terms() -> Vec<Term> {
    GLOSSARY.get().cloned().unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shipped_glossary_has_the_core_terms_in_both_languages() {
        let terms = parse(GLOSSARY_JSON).unwrap_or_else(|e| panic!("{e}"));
        for (zh, en) in [
            ("检查点", "checkpoint"),
            ("屏障", "barrier"),
            ("对齐", "alignment"),
            ("状态后端", "state backend"),
            ("保存点", "savepoint"),
            ("两阶段提交", "two-phase commit"),
        ] {
            assert!(
                terms.iter().any(|t| t.term.zh == zh && t.term.en == en),
                "{zh} / {en} missing"
            );
        }
    }

    #[test]
    fn an_incomplete_entry_is_named() {
        let err = parse(r#"{"terms": [{"term": {"zh": "检查点", "en": ""}, "explain": {"zh": "x", "en": "y"}}]}"#).unwrap_err().to_string();
        assert!(err.contains("terms[1].term"), "{err}");
    }
}
