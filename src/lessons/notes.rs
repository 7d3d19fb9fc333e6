//! "The notes say … — Flink does …": where a lesson meets a claim of the learners'
//! study notes that Flink's source or documentation contradicts (or that is out of
//! date), a short callout says the claim, what Flink does, and which Flink version
//! or class decides it. Callouts sit in tour steps and glossary entries (`"notes"`
//! in `assets/tours/*.json` and `assets/glossary.json`). Pure: no `web_sys`.

use std::fmt;

use engine::scenario::Localized;
use serde::Deserialize;

/// One callout: the notes' claim, in the lab's words, against Flink.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NotesCallout {
    /// What the notes claim (paraphrased, never quoted).
    pub claim: Localized,
    /// What Flink does instead.
    pub flink: Localized,
    /// The Flink version or class that decides it: `Flink 1.11`,
    /// `RestartBackoffTimeStrategyFactoryLoader`, … (the same in both languages).
    pub decided_by: String,
}

/// What an incomplete callout misses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotesError {
    /// `claim` or `flink` without one of its languages.
    MissingLanguage {
        /// `claim` or `flink`.
        field: &'static str,
    },
    /// `decided_by` names neither a Flink version nor a class.
    UndecidedBy {
        /// What it says.
        decided_by: String,
    },
}

impl fmt::Display for NotesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotesError::MissingLanguage { field } => write!(f, "notes.{field} needs both zh and en"),
            NotesError::UndecidedBy { decided_by } => write!(
                f,
                "notes.decided_by: {decided_by:?} names neither a Flink version (\"Flink 1.19\") nor a class (\"CheckpointCoordinator\")"
            ),
        }
    }
}

impl std::error::Error for NotesError {}

impl NotesCallout {
    /// Checks that both languages are there and that `decided_by` names a Flink
    /// version or a Java class; the error says what is missing.
    pub fn check(&self) -> Result<(), NotesError> {
        for (field, l) in [("claim", &self.claim), ("flink", &self.flink)] {
            if l.zh.trim().is_empty() || l.en.trim().is_empty() {
                return Err(NotesError::MissingLanguage { field });
            }
        }
        if !names_version_or_class(&self.decided_by) {
            return Err(NotesError::UndecidedBy {
                decided_by: self.decided_by.clone(),
            });
        }
        Ok(())
    }
}

/// Whether `s` names a Flink version (`Flink 1.11`, `Flink 2.0`) or a Java class
/// (one word in UpperCamelCase with at least two humps, such as
/// `StreamGraphHasherV2`).
pub fn names_version_or_class(s: &str) -> bool {
    let version = s.split("Flink ").skip(1).any(|rest| {
        let mut parts = rest.split('.');
        let major = parts.next().unwrap_or("");
        let minor: String = parts
            .next()
            .unwrap_or("")
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        !major.is_empty() && major.chars().all(|c| c.is_ascii_digit()) && !minor.is_empty()
    });
    let class = s.split(|c: char| !c.is_ascii_alphanumeric()).any(|w| {
        w.chars().next().is_some_and(|c| c.is_ascii_uppercase())
            && w.chars().filter(char::is_ascii_uppercase).count() >= 2
            && w.chars().any(|c| c.is_ascii_lowercase())
    });
    version || class
}

#[cfg(test)]
mod tests {
    use super::*;

    fn loc(zh: &str, en: &str) -> Localized {
        Localized {
            zh_hant: None,
            zh: zh.to_string(),
            en: en.to_string(),
        }
    }

    #[test]
    fn a_version_or_a_class_is_recognised() {
        for good in [
            "Flink 1.11",
            "since Flink 1.19 (FLINK-33738)",
            "CheckpointCoordinator",
            "StreamGraphHasherV2",
            "Flink 2.0 · RecoveryClaimMode",
        ] {
            assert!(names_version_or_class(good), "{good}");
        }
        for bad in ["", "Flink", "flink docs", "Flink 1", "FLINK", "Checkpoint"] {
            assert!(!names_version_or_class(bad), "{bad}");
        }
    }

    #[test]
    fn a_missing_language_or_source_is_named() {
        let c = NotesCallout {
            claim: loc("笔记", ""),
            flink: loc("x", "y"),
            decided_by: "Flink 1.11".into(),
        };
        assert_eq!(
            c.check(),
            Err(NotesError::MissingLanguage { field: "claim" })
        );
        assert_eq!(
            c.check().unwrap_err().to_string(),
            "notes.claim needs both zh and en"
        );
        let c = NotesCallout {
            claim: loc("a", "b"),
            flink: loc("x", "y"),
            decided_by: "the docs".into(),
        };
        assert!(c
            .check()
            .unwrap_err()
            .to_string()
            .starts_with("notes.decided_by: \"the docs\" names neither"));
    }

    /// Every callout shipped in a tour step or a glossary entry is complete in both
    /// languages and names what decides it, and each of the notes' outdated claims
    /// the lessons meet has a callout in a tour and one in the glossary.
    #[cfg(feature = "bundled")]
    #[test]
    fn shipped_callouts_cover_the_notes_outdated_claims() {
        use crate::lessons::{glossary, tour};
        let mut in_tours = Vec::new();
        for (name, json) in tour::TOURS {
            let t = tour::Tour::parse(json).unwrap_or_else(|e| panic!("{name}: {e}"));
            for (i, step) in t.steps.iter().enumerate() {
                if let Some(c) = &step.notes {
                    c.check()
                        .unwrap_or_else(|e| panic!("{name} step {}: {e}", i + 1));
                    in_tours.push(c.clone());
                }
            }
        }
        let terms = glossary::parse(glossary::GLOSSARY_JSON).unwrap_or_else(|e| panic!("{e}"));
        let in_glossary: Vec<NotesCallout> = terms.iter().filter_map(|t| t.notes.clone()).collect();
        for c in &in_glossary {
            c.check().unwrap_or_else(|e| panic!("glossary: {e}"));
        }
        // (the claim, a word its callout's source must name)
        let claims = [
            ("unaligned means at-least-once", "1.11"),
            ("hashmap state in the JobManager", "HashMapStateBackend"),
            (
                "checkpoints retained on cancel by default",
                "EXTERNALIZED_CHECKPOINT_RETENTION",
            ),
            ("fixed delay is the default restart strategy", "1.19"),
            ("operator IDs from a counter", "StreamGraphHasherV2"),
        ];
        for (claim, source) in claims {
            for (place, callouts) in [("a tour", &in_tours), ("the glossary", &in_glossary)] {
                assert!(
                    callouts.iter().any(|c| c.decided_by.contains(source)),
                    "no callout in {place} for the notes' claim \"{claim}\" (naming {source})"
                );
            }
        }
    }
}
