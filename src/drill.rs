//! The interview drill (面试题): the study notes' questions 29–44 and the state
//! chapter, each with the lesson moment that shows it, a model answer, where the
//! notes and Flink differ, and exercises whose answers the engine computes on a
//! fresh variant of a lesson ([`engine::drill`]).
//!
//! The questions are data, `assets/drill/questions.json` (a teacher edits
//! sentences, not Rust), compiled in for the tests (the `bundled` feature) and
//! fetched by the page like a tour (`src/data.rs`, [`provide`]); the panel's own
//! wording is `assets/i18n/drill.json` ([`w`]). A learner's progress is kept per
//! question in `localStorage` ([`Progress`]). The view is [`panel::DrillPanel`].
//!
//! ```json
//! {"version": 1, "questions": [
//!   {"id": "q33", "number": "33", "section": "interview",
//!    "question": {"zh": "…", "en": "…"},
//!    "moment": {"lesson": "pv-count", "at_ms": 1010, "mode": "aligned"},
//!    "answer": {"zh": "…", "en": "…"},
//!    "callout": {"zh": "笔记说…… Flink 实际……", "en": "The notes say … Flink does …"},
//!    "exercises": ["stored_offset"]}]}
//! ```

pub mod exercise;
pub mod panel;
pub mod pick;

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;
use std::sync::OnceLock;

use engine::drill::Kind;
use engine::scenario::Localized;
use serde::{Deserialize, Serialize};

use crate::i18n::Lang;
use crate::playback::Mode;

/// The questions' data file, as the manifest names it.
pub const FILE: &str = "drill/questions.json";

/// The questions, compiled in (the `bundled` feature; the page fetches them).
#[cfg(feature = "bundled")]
pub const QUESTIONS_JSON: &str = include_str!("../assets/drill/questions.json");

/// The panel's wording, compiled in (it is small; the questions are not).
pub const WORDS_JSON: &str = include_str!("../assets/i18n/drill.json");

/// The drill's questions, in the notes' order.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Questions {
    /// The file format's version, 1.
    pub version: u32,
    /// The questions.
    pub questions: Vec<Question>,
}

/// Which part of the notes a question comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Section {
    /// The interview questions, numbered 29–44.
    Interview,
    /// The state chapter's topics, numbered S1, S2, … here.
    State,
}

/// One question.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Question {
    /// Stable id (progress is kept under it).
    pub id: String,
    /// The notes' number (`"33"`), or `"S1"` for the state chapter's topics.
    pub number: String,
    /// Its part of the notes.
    pub section: Section,
    /// The question, in our words.
    pub question: Localized,
    /// The lesson moment that shows it.
    pub moment: Moment,
    /// A short, interview-ready model answer.
    pub answer: Localized,
    /// Where the notes are outdated or wrong: what they say, and what Flink does.
    #[serde(default)]
    pub callout: Option<Localized>,
    /// The exercise kinds (`engine::drill::Kind` keys).
    pub exercises: Vec<String>,
}

/// A lesson at a simulated time.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Moment {
    /// The built-in lesson.
    pub lesson: String,
    /// The simulated time.
    pub at_ms: u64,
    /// A checkpointing mode other than the lesson's own (`aligned`, `unaligned`,
    /// `at_least_once`).
    #[serde(default)]
    pub mode: Option<String>,
}

impl Question {
    /// The exercise kinds, known to be valid once [`Questions::parse`] passed.
    pub fn kinds(&self) -> Vec<Kind> {
        self.exercises
            .iter()
            .filter_map(|k| Kind::from_key(k))
            .collect()
    }

    /// The moment's mode, if it names one.
    pub fn mode(&self) -> Option<Mode> {
        self.moment.mode.as_deref().and_then(Mode::from_key)
    }

    /// "第 33 题" / "Question 33", or "状态 1" / "State 1".
    pub fn label(&self, lang: Lang) -> String {
        match self.section {
            Section::Interview => wf("number", lang, &[("n", &self.number)]),
            Section::State => wf(
                "state_number",
                lang,
                &[("n", self.number.trim_start_matches('S'))],
            ),
        }
    }
}

impl Questions {
    /// Parses and checks the file: every lesson exists, every exercise kind and
    /// mode is known, no id repeats, no text is empty. The error names the field.
    pub fn parse(json: &str) -> Result<Questions, String> {
        let q: Questions = serde_json::from_str(json).map_err(|e| format!("{FILE}: {e}"))?;
        if q.version != 1 {
            return Err(format!("{FILE}: version: {} is not 1", q.version));
        }
        let mut ids = std::collections::BTreeSet::new();
        for (i, question) in q.questions.iter().enumerate() {
            let at = |field: &str| format!("{FILE}: questions[{i}].{field}");
            if !ids.insert(question.id.as_str()) {
                return Err(format!("{}: {:?} repeats", at("id"), question.id));
            }
            if !engine::runner::NAMES.contains(&question.moment.lesson.as_str()) {
                return Err(format!(
                    "{}: no lesson {:?}",
                    at("moment.lesson"),
                    question.moment.lesson
                ));
            }
            if let Some(m) = &question.moment.mode {
                if Mode::from_key(m).is_none() {
                    return Err(format!("{}: unknown mode {m:?}", at("moment.mode")));
                }
            }
            if let Some(k) = question
                .exercises
                .iter()
                .find(|k| Kind::from_key(k).is_none())
            {
                return Err(format!("{}: unknown exercise kind {k:?}", at("exercises")));
            }
            let texts = [
                ("question", Some(&question.question)),
                ("answer", Some(&question.answer)),
                ("callout", question.callout.as_ref()),
            ];
            for (field, text) in texts {
                if text.is_some_and(|t| t.zh.trim().is_empty() || t.en.trim().is_empty()) {
                    return Err(format!("{}: a language is empty", at(field)));
                }
            }
        }
        Ok(q)
    }
}

thread_local! {
    static PROVIDED: RefCell<Option<Rc<Questions>>> = const { RefCell::new(None) };
}

/// The questions, if here (compiled in, or fetched and [`provide`]d).
pub fn questions() -> Option<Rc<Questions>> {
    #[cfg(feature = "bundled")]
    if PROVIDED.with(|p| p.borrow().is_none()) {
        let q = Questions::parse(QUESTIONS_JSON).ok().map(Rc::new);
        PROVIDED.with(|p| *p.borrow_mut() = q);
    }
    PROVIDED.with(|p| p.borrow().clone())
}

/// Whether the questions are here.
pub fn available() -> bool {
    cfg!(feature = "bundled") || PROVIDED.with(|p| p.borrow().is_some())
}

/// Supplies the fetched questions, checked as the tests check the file.
pub fn provide(json: &str) -> Result<(), String> {
    let q = Questions::parse(json)?;
    PROVIDED.with(|p| *p.borrow_mut() = Some(Rc::new(q)));
    Ok(())
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Pair {
    zh: String,
    #[serde(rename = "zh-Hant", default)]
    zh_hant: Option<String>,
    en: String,
}

/// The wording table, or the first problem (the key named).
fn words(json: &str) -> Result<BTreeMap<String, Pair>, String> {
    let raw: BTreeMap<String, serde_json::Value> =
        serde_json::from_str(json).map_err(|e| format!("drill.json: {e}"))?;
    raw.into_iter()
        .filter(|(k, _)| !k.starts_with('_'))
        .map(|(k, v)| {
            let p = Pair::deserialize(&v).map_err(|e| format!("drill.json: \"{k}\": {e}"))?;
            if p.zh.trim().is_empty() || p.en.trim().is_empty() {
                return Err(format!("drill.json: \"{k}\" has an empty translation"));
            }
            Ok((k, p))
        })
        .collect()
}

/// The drill's text `key` in `lang`; a missing key shows as `⟨key⟩`.
pub fn w(key: &str, lang: Lang) -> String {
    static TABLE: OnceLock<BTreeMap<String, Pair>> = OnceLock::new();
    let t = TABLE.get_or_init(|| words(WORDS_JSON).unwrap_or_default());
    t.get(key).map_or_else(
        || format!("⟨{key}⟩"),
        |p| lang.pick(&p.zh, p.zh_hant.as_deref(), &p.en).to_string(),
    )
}

/// [`w`] with `{name}` placeholders filled in.
pub fn wf(key: &str, lang: Lang, args: &[(&str, &str)]) -> String {
    args.iter()
        .fold(w(key, lang), |s, (k, v)| s.replace(&format!("{{{k}}}"), v))
}

/// How a learner has done on one question.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mark {
    /// Exercises answered all right.
    pub right: u32,
    /// Exercises answered with a mistake.
    pub wrong: u32,
}

/// Progress per question id, kept in `localStorage`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Progress(pub BTreeMap<String, Mark>);

/// The `localStorage` key of [`Progress`].
pub const PROGRESS_KEY: &str = "checkpoint-lab.drill.v1";

impl Progress {
    /// Reads the saved progress (nothing saved, or unreadable: none).
    pub fn load() -> Progress {
        storage()
            .and_then(|s| s.get_item(PROGRESS_KEY).ok().flatten())
            .and_then(|t| serde_json::from_str(&t).ok())
            .unwrap_or_default()
    }

    /// Saves it (private browsing without storage: kept for this visit only).
    pub fn save(&self) {
        if let (Some(s), Ok(text)) = (storage(), serde_json::to_string(self)) {
            let _ = s.set_item(PROGRESS_KEY, &text);
        }
    }

    /// `self` with one more exercise of question `id` marked.
    pub fn with(&self, id: &str, right: bool) -> Progress {
        let mut next = self.clone();
        let m = next.0.entry(id.to_string()).or_default();
        if right {
            m.right += 1;
        } else {
            m.wrong += 1;
        }
        next
    }

    /// The mark of question `id`.
    pub fn of(&self, id: &str) -> Mark {
        self.0.get(id).copied().unwrap_or_default()
    }

    /// How many of `questions` have an exercise answered all right.
    pub fn right_count(&self, questions: &Questions) -> usize {
        questions
            .questions
            .iter()
            .filter(|q| self.of(&q.id).right > 0)
            .count()
    }
}

fn storage() -> Option<web_sys::Storage> {
    if cfg!(not(target_arch = "wasm32")) {
        return None;
    }
    web_sys::window()?.local_storage().ok().flatten()
}

#[cfg(all(test, feature = "bundled"))]
mod tests {
    use super::*;

    fn all() -> Rc<Questions> {
        questions().expect("questions.json parses")
    }

    #[test]
    fn every_question_has_a_moment_answers_and_an_exercise() {
        let q = all();
        let numbers: Vec<&str> = q
            .questions
            .iter()
            .filter(|q| q.section == Section::Interview)
            .map(|q| q.number.as_str())
            .collect();
        let expected: Vec<String> = (29..=44)
            .filter(|n| *n != 40)
            .map(|n| n.to_string())
            .collect();
        assert_eq!(numbers, expected, "the notes' numbers, in order, no 40");
        // The interview questions and the state chapter alike.
        for question in q.questions.iter() {
            let n = &question.number;
            assert!(!question.kinds().is_empty(), "{n}: at least one exercise");
            assert!(question.kinds().len() <= 3, "{n}: at most three exercises");
            assert!(question.answer.zh.chars().count() > 40, "{n}: a zh answer");
            assert!(
                question.answer.en.split_whitespace().count() > 25,
                "{n}: an en answer"
            );
            let base = engine::runner::load(&question.moment.lesson).unwrap();
            assert!(
                question.moment.at_ms <= base.until_ms.unwrap_or(engine::runner::DEFAULT_LIMIT_MS),
                "{n}: the moment is inside the run"
            );
        }
        // The state chapter's TTL and broadcast-state topics ask about their own
        // lessons' state.
        let kinds = |n: &str| {
            q.questions
                .iter()
                .find(|q| q.number == n)
                .map(Question::kinds)
                .unwrap_or_default()
        };
        assert!(kinds("S2").contains(&Kind::TtlPasses), "S2: state TTL");
        assert!(
            kinds("S4").contains(&Kind::BroadcastCopies),
            "S4: broadcast state"
        );
    }

    #[test]
    fn the_state_chapter_follows_in_the_notes_order() {
        let q = all();
        let state: Vec<&str> = q
            .questions
            .iter()
            .filter(|q| q.section == Section::State)
            .map(|q| q.number.as_str())
            .collect();
        assert_eq!(state, ["S1", "S2", "S3", "S4", "S5", "S6", "S7"]);
        let first_state = q.questions.iter().position(|q| q.section == Section::State);
        assert_eq!(
            first_state,
            Some(15),
            "after the fifteen interview questions"
        );
    }

    #[test]
    fn the_callouts_name_the_notes_claim_and_what_flink_does() {
        let q = all();
        let with: Vec<&str> = q
            .questions
            .iter()
            .filter(|q| q.callout.is_some())
            .map(|q| q.number.as_str())
            .collect();
        // The outdated claims: 39 (no alignment = at-least-once), the JobManager
        // heap, the default retention, the default restart strategy, counter ids,
        // Chandy–Lamport unnamed, snapshot-then-forward.
        for n in ["29", "30", "34", "35", "36", "39", "S5", "S6"] {
            assert!(with.contains(&n), "{n} has a callout: {with:?}");
        }
        for question in q.questions.iter() {
            if let Some(c) = &question.callout {
                assert!(c.zh.starts_with("笔记"), "{}: {}", question.number, c.zh);
                assert!(
                    c.en.starts_with("The notes"),
                    "{}: {}",
                    question.number,
                    c.en
                );
                assert!(c.zh.contains("Flink") && c.en.contains("Flink"));
            }
        }
    }

    #[test]
    fn a_bad_file_is_refused_naming_the_field() {
        let good: serde_json::Value = serde_json::from_str(QUESTIONS_JSON).unwrap();
        let with = |path: &[&str], v: serde_json::Value| {
            let mut doc = good.clone();
            let mut at = &mut doc["questions"][0];
            for p in &path[..path.len() - 1] {
                at = &mut at[*p];
            }
            at[path[path.len() - 1]] = v;
            Questions::parse(&doc.to_string()).unwrap_err()
        };
        let e = with(&["moment", "lesson"], "nope".into());
        assert!(
            e.contains("questions[0].moment.lesson") && e.contains("nope"),
            "{e}"
        );
        let e = with(&["exercises"], serde_json::json!(["guess"]));
        assert!(
            e.contains("questions[0].exercises") && e.contains("guess"),
            "{e}"
        );
        let e = with(&["moment", "mode"], "sideways".into());
        assert!(e.contains("questions[0].moment.mode"), "{e}");
        let e = with(&["answer"], serde_json::json!({"zh": "", "en": "x"}));
        assert!(e.contains("questions[0].answer"), "{e}");
        let e = Questions::parse("{\"version\": 1, \"questions\": [{}]}").unwrap_err();
        assert!(e.starts_with(FILE), "{e}");
    }

    #[test]
    fn every_exercise_kind_and_blank_has_wording_in_both_languages() {
        let t = words(WORDS_JSON).unwrap_or_else(|e| panic!("{e}"));
        for kind in Kind::ALL {
            assert!(
                t.contains_key(&format!("q_{}", kind.key())),
                "{}",
                kind.key()
            );
            let base = engine::runner::load(kind.lesson()).unwrap();
            let ex = engine::drill::generate(kind, &base, 1).unwrap();
            for b in &ex.blanks {
                assert!(t.contains_key(&format!("b_{}", b.name)), "b_{}", b.name);
            }
            for p in ex.params.keys() {
                assert!(t.contains_key(&format!("p_{p}")), "p_{p}");
            }
        }
        // The placeholders of each entry are the same in both languages.
        for (k, p) in &t {
            let holes = |s: &str| {
                let mut v: Vec<String> = s
                    .split('{')
                    .skip(1)
                    .filter_map(|r| r.split_once('}').map(|(h, _)| h.to_string()))
                    .collect();
                v.sort();
                v
            };
            assert_eq!(holes(&p.zh), holes(&p.en), "{k}");
        }
    }

    #[test]
    fn progress_counts_a_question_once_it_was_answered_right() {
        let q = all();
        let p = Progress::default()
            .with("q33", false)
            .with("q33", true)
            .with("q37", false);
        assert_eq!(p.of("q33"), Mark { right: 1, wrong: 1 });
        assert_eq!(p.right_count(&q), 1);
        let text = serde_json::to_string(&p).unwrap();
        assert_eq!(serde_json::from_str::<Progress>(&text).unwrap(), p);
    }
}
