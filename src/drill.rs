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

pub mod ask;
pub mod class;
pub mod exercise;
pub mod lesson;
pub mod panel;
pub mod pick;

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

use engine::drill::Kind;
use engine::scenario::Localized;
use serde::{Deserialize, Serialize};

use crate::i18n::{Lang, WordingError};
use crate::playback::Mode;

/// The questions' data file, as the manifest names it.
pub const FILE: &str = "drill/questions.json";

/// The questions, compiled in (the `bundled` feature; the page fetches them).
#[cfg(feature = "bundled")]
pub const QUESTIONS_JSON: &str = include_str!("../assets/drill/questions.json");

/// The panel's wording, compiled in for native code and the tests (the page
/// fetches it with the questions: [`WORDS`], `src/data.rs`).
#[cfg(any(feature = "bundled", not(target_arch = "wasm32")))]
pub const WORDS_JSON: &str = include_str!("../assets/i18n/drill.json");

/// `drill.json`'s table.
pub static WORDS: crate::i18n::Book<BTreeMap<String, Pair>> = crate::i18n::Book::new(
    "i18n/drill.json",
    crate::i18n::compiled_in!(WORDS_JSON),
    words,
);

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
    /// Where the model answer's claims about Flink come from (see
    /// [`crate::lessons::sources`]).
    #[serde(default)]
    pub sources: Vec<String>,
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
    pub fn parse(json: &str) -> Result<Questions, WordingError> {
        let q: Questions = serde_json::from_str(json).map_err(|e| WordingError::json(FILE, &e))?;
        if q.version != 1 {
            return Err(WordingError::entry(
                FILE,
                "version",
                format_args!("{} is not 1", q.version),
            ));
        }
        let mut ids = std::collections::BTreeSet::new();
        for (i, question) in q.questions.iter().enumerate() {
            let bad = |field: &str, detail: String| {
                WordingError::entry(FILE, format!("questions[{i}].{field}"), detail)
            };
            if !ids.insert(question.id.as_str()) {
                return Err(bad("id", format!("{:?} repeats", question.id)));
            }
            if !engine::runner::NAMES.contains(&question.moment.lesson.as_str()) {
                return Err(bad(
                    "moment.lesson",
                    format!("no lesson {:?}", question.moment.lesson),
                ));
            }
            if let Some(m) = &question.moment.mode {
                if Mode::from_key(m).is_none() {
                    return Err(bad("moment.mode", format!("unknown mode {m:?}")));
                }
            }
            if let Some(k) = question
                .exercises
                .iter()
                .find(|k| Kind::from_key(k).is_none())
            {
                return Err(bad("exercises", format!("unknown exercise kind {k:?}")));
            }
            let texts = [
                ("question", Some(&question.question)),
                ("answer", Some(&question.answer)),
                ("callout", question.callout.as_ref()),
            ];
            for (field, text) in texts {
                if text.is_some_and(|t| t.zh.trim().is_empty() || t.en.trim().is_empty()) {
                    return Err(bad(field, "a language is empty".into()));
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
pub fn provide(json: &str) -> Result<(), WordingError> {
    let q = Questions::parse(json)?;
    PROVIDED.with(|p| *p.borrow_mut() = Some(Rc::new(q)));
    Ok(())
}

/// One text of the drill's wording in every language.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pair {
    zh: String,
    #[serde(rename = "zh-Hant", default)]
    zh_hant: Option<String>,
    en: String,
}

/// The wording table, or the first problem (the key named).
fn words(json: &str) -> Result<BTreeMap<String, Pair>, WordingError> {
    const FILE: &str = "drill.json";
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

/// The drill's text `key` in `lang`, if the wording file has it.
pub fn w_opt(key: &str, lang: Lang) -> Option<String> {
    WORDS
        .get()?
        .get(key)
        .map(|p| lang.pick(&p.zh, p.zh_hant.as_deref(), &p.en).to_string())
}

/// The drill's text `key` in `lang`; a key the file lacks shows as `⟨key⟩`, and
/// every key as `…` while the file is still on its way (the drill fetches it
/// with the questions).
pub fn w(key: &str, lang: Lang) -> String {
    if WORDS.get().is_none() {
        return "…".into();
    }
    w_opt(key, lang).unwrap_or_else(|| format!("⟨{key}⟩"))
}

/// A label a blank offers, in words: a wording key (`yes`, `claimed`) worded
/// from `label.<key>`, any other label (`src#1`, `chk-3`) as it is.
pub fn label_text(label: &str, lang: Lang) -> String {
    w_opt(&format!("label.{label}"), lang).unwrap_or_else(|| label.to_string())
}

/// The reason behind a blank's answer in words (`why.<key>` with its values),
/// if the wording file has its key.
pub fn why_text(why: &engine::drill::Why, lang: Lang) -> Option<String> {
    let template = w_opt(&format!("why.{}", why.key), lang)?;
    Some(fill_why(&template, why, lang))
}

/// `template` with the reason's values in its `{name}` placeholders; a value
/// that is a label's wording key (`claimed`) is worded as the label is.
pub fn fill_why(template: &str, why: &engine::drill::Why, lang: Lang) -> String {
    why.args.iter().fold(template.to_string(), |s, (k, v)| {
        s.replace(&format!("{{{k}}}"), &label_text(v, lang))
    })
}

/// [`w`] with `{name}` placeholders filled in.
pub fn wf(key: &str, lang: Lang, args: &[(&str, &str)]) -> String {
    args.iter()
        .fold(w(key, lang), |s, (k, v)| s.replace(&format!("{{{k}}}"), v))
}

/// How a learner has done on one question.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mark {
    /// Exercises answered all right.
    pub right: u32,
    /// Exercises answered with a mistake.
    pub wrong: u32,
    /// The exercise kinds (keys) answered all right at least once: the
    /// question is done when every one of its kinds is here.
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub kinds_right: BTreeSet<String>,
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
            .and_then(|t| Progress::from_json(&t))
            .unwrap_or_default()
    }

    /// The progress saved as `text` (unreadable: `None`).
    pub fn from_json(text: &str) -> Option<Progress> {
        serde_json::from_str(text).ok()
    }

    /// Saves it (private browsing without storage: kept for this visit only).
    pub fn save(&self) {
        if let (Some(s), Ok(text)) = (storage(), serde_json::to_string(self)) {
            let _ = s.set_item(PROGRESS_KEY, &text);
        }
    }

    /// `self` with one more exercise (of kind `kind`) of question `id` marked.
    pub fn with(&self, id: &str, kind: &str, right: bool) -> Progress {
        let mut next = self.clone();
        let m = next.0.entry(id.to_string()).or_default();
        if right {
            m.right += 1;
            m.kinds_right.insert(kind.to_string());
        } else {
            m.wrong += 1;
        }
        next
    }

    /// The mark of question `id`.
    pub fn of(&self, id: &str) -> Mark {
        self.0.get(id).cloned().unwrap_or_default()
    }

    /// Whether every exercise of `q` has been answered all right.
    pub fn is_done(&self, q: &Question) -> bool {
        let mark = self.of(&q.id);
        !q.exercises.is_empty() && q.exercises.iter().all(|k| mark.kinds_right.contains(k))
    }

    /// How many of `questions` are done ([`Progress::is_done`]).
    pub fn right_count(&self, questions: &Questions) -> usize {
        questions
            .questions
            .iter()
            .filter(|q| self.is_done(q))
            .count()
    }
}

/// The address parameter naming the open question (`?drill=1&q=q37`).
pub const QUESTION_PARAM: &str = "q";

/// The address parameter that opens the drill (`?drill=1`).
pub const DRILL_PARAM: &str = "drill";

/// The open question's id as the query string `search` (`?drill=1&q=q37`)
/// names it, if the drill is open there.
pub fn open_in(search: &str) -> Option<String> {
    let pairs = query_pairs(search.strip_prefix('?').unwrap_or(search));
    let on = pairs.iter().any(|(k, v)| k == DRILL_PARAM && v == "1");
    pairs
        .into_iter()
        .find(|(k, v)| on && k == QUESTION_PARAM && !v.is_empty())
        .map(|(_, v)| v)
}

/// `href` with the drill's state in its query: `drill=1` while the drill is
/// open, and `q=<id>` while a question is; other parameters and the fragment
/// (a share link's recipe) are kept as they were.
pub fn address_with(href: &str, drill_open: bool, question: Option<&str>) -> String {
    let (rest, fragment) = match href.split_once('#') {
        Some((r, f)) => (r, Some(f)),
        None => (href, None),
    };
    let (base, query) = rest.split_once('?').unwrap_or((rest, ""));
    let mut parts: Vec<String> = query
        .split('&')
        .filter(|p| !p.is_empty())
        .filter(|p| {
            let key = p.split('=').next().unwrap_or("");
            key != DRILL_PARAM && key != QUESTION_PARAM
        })
        .map(str::to_string)
        .collect();
    if drill_open {
        parts.push(format!("{DRILL_PARAM}=1"));
        if let Some(id) = question {
            let id: String = id
                .chars()
                .filter(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
                .collect();
            parts.push(format!("{QUESTION_PARAM}={id}"));
        }
    }
    let mut out = base.to_string();
    if !parts.is_empty() {
        out.push('?');
        out.push_str(&parts.join("&"));
    }
    if let Some(f) = fragment {
        out.push('#');
        out.push_str(f);
    }
    out
}

/// The query's `key=value` pairs (the drill's own values are plain ids, so no
/// percent-decoding is needed for them).
fn query_pairs(query: &str) -> Vec<(String, String)> {
    query
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (k, v) = p.split_once('=').unwrap_or((p, ""));
            (k.to_string(), v.to_string())
        })
        .collect()
}

/// Puts the drill's state in the address bar (`history.replaceState`: no entry
/// in the back button's history), so a reload or a copied link reopens it.
pub fn remember(drill_open: bool, question: Option<&str>) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let Ok(href) = window.location().href() else {
        return;
    };
    let next = address_with(&href, drill_open, question);
    if next != href {
        if let Ok(history) = window.history() {
            let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&next));
        }
    }
}

/// The open question the address bar names, if the drill is open there.
pub fn open_in_address() -> Option<String> {
    let search = web_sys::window()?.location().search().ok()?;
    open_in(&search)
}

/// How long a run of identifier characters must be before it gets break
/// opportunities (shorter ones fit any panel).
const LONG_TOKEN: usize = 14;

/// `text` cut where a long identifier may break: after a dot, `_`, `#`, `/`
/// or `-`, and before a capital that follows a small letter
/// (`SubtaskCheckpointCoordinatorImpl.checkpointState` → `Subtask`,
/// `Checkpoint`, `Coordinator`, `Impl.`, `checkpoint`, `State`). Other text is
/// one piece: words break at spaces, and CJK text between any characters.
pub fn break_pieces(text: &str) -> Vec<String> {
    let is_ident = |c: char| c.is_ascii_alphanumeric() || "._#/-".contains(c);
    let chars: Vec<char> = text.chars().collect();
    let mut pieces = vec![String::new()];
    let mut i = 0;
    while i < chars.len() {
        let start = i;
        while i < chars.len() && is_ident(chars[i]) {
            i += 1;
        }
        let run = &chars[start..i];
        if run.len() >= LONG_TOKEN {
            for (j, &c) in run.iter().enumerate() {
                let camel = j > 0 && c.is_ascii_uppercase() && run[j - 1].is_ascii_lowercase();
                if camel && !pieces.last().is_some_and(String::is_empty) {
                    pieces.push(String::new());
                }
                pieces.last_mut().expect("one piece at least").push(c);
                if "._#/-".contains(c) && j + 1 < run.len() {
                    pieces.push(String::new());
                }
            }
        } else {
            pieces.last_mut().expect("one piece at least").extend(run);
        }
        if i < chars.len() {
            pieces
                .last_mut()
                .expect("one piece at least")
                .push(chars[i]);
            i += 1;
        }
    }
    pieces
}

/// `text` with `<wbr>` at the break opportunities of [`break_pieces`].
pub fn breakable(text: &str) -> yew::Html {
    use yew::html;
    let pieces = break_pieces(text);
    let n = pieces.len();
    html! {
        <>{ for pieces.into_iter().enumerate().map(|(i, p)| html! {
            <>{ p }if i + 1 < n { <wbr /> }</>
        }) }</>
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
            Questions::parse(&doc.to_string()).unwrap_err().to_string()
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
        let e = Questions::parse("{\"version\": 1, \"questions\": [{}]}")
            .unwrap_err()
            .to_string();
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
    fn a_question_is_done_only_when_every_exercise_was_answered_right() {
        let q = all();
        let mut two = q.questions[0].clone();
        two.id = "two".into();
        two.exercises = vec!["stored_offset".into(), "restored_sums".into()];
        let one = q.questions[0].clone();
        let p = Progress::default()
            .with("two", "stored_offset", false)
            .with("two", "stored_offset", true);
        assert!(!p.is_done(&two), "one of two exercises right is not done");
        assert_eq!(p.of("two").right, 1);
        assert_eq!(p.of("two").wrong, 1);
        let p = p.with("two", "restored_sums", true);
        assert!(p.is_done(&two));
        let first = one.exercises[0].clone();
        assert!(!p.is_done(&one));
        let p = p.with(&one.id, &first, false);
        assert!(!p.is_done(&one), "a wrong answer is not done");
        let all_kinds = one
            .exercises
            .iter()
            .fold(p, |p, k| p.with(&one.id, k, true));
        assert!(all_kinds.is_done(&one));
        assert_eq!(all_kinds.right_count(&q), 1);
        // Kept as JSON, and the older form (counts only) still reads.
        let text = serde_json::to_string(&all_kinds).unwrap();
        assert_eq!(Progress::from_json(&text), Some(all_kinds));
        let old = Progress::from_json(r#"{"q33": {"right": 2, "wrong": 0}}"#).unwrap();
        assert_eq!(old.of("q33").right, 2);
        assert_eq!(
            old.right_count(&q),
            0,
            "which exercise was right is unknown"
        );
    }

    #[test]
    fn the_address_keeps_the_open_question() {
        let href = "https://x.test/lab/?lang=zh&drill=1#r=abc";
        let with = address_with(href, true, Some("q37"));
        assert_eq!(with, "https://x.test/lab/?lang=zh&drill=1&q=q37#r=abc");
        let search = with.split_once('?').unwrap().1.split('#').next().unwrap();
        assert_eq!(open_in(search).as_deref(), Some("q37"));
        assert_eq!(open_in(&format!("?{search}")).as_deref(), Some("q37"));
        // Back to the list, then the drill closed.
        let list = address_with(&with, true, None);
        assert_eq!(list, "https://x.test/lab/?lang=zh&drill=1#r=abc");
        assert_eq!(open_in("?lang=zh&drill=1"), None);
        assert_eq!(
            address_with(&list, false, None),
            "https://x.test/lab/?lang=zh#r=abc"
        );
        assert_eq!(
            address_with("https://x.test/", true, Some("s4")),
            "https://x.test/?drill=1&q=s4"
        );
        // A question named while the drill is closed does not open it.
        assert_eq!(open_in("?q=q37"), None);
        // Nothing but an id's characters reaches the address.
        assert_eq!(
            address_with("/", true, Some("q3&x=<b>")),
            "/?drill=1&q=q3xb"
        );
    }

    #[test]
    fn long_identifiers_break_at_dots_and_capitals_never_mid_word() {
        let pieces = break_pieces("调用 SubtaskCheckpointCoordinatorImpl.checkpointState 之后");
        assert_eq!(
            pieces,
            [
                "调用 Subtask",
                "Checkpoint",
                "Coordinator",
                "Impl.",
                "checkpoint",
                "State 之后"
            ]
        );
        assert_eq!(
            pieces.concat(),
            "调用 SubtaskCheckpointCoordinatorImpl.checkpointState 之后"
        );
        // Short words and sentences stay whole.
        assert_eq!(
            break_pieces("The notes say chk-3 is kept."),
            ["The notes say chk-3 is kept."]
        );
        assert_eq!(
            break_pieces("execution.checkpointing.interval"),
            ["execution.", "checkpointing.", "interval"]
        );
    }

    #[test]
    fn labels_and_reasons_are_worded_from_the_wording_file() {
        assert_eq!(label_text("src#1", Lang::En), "src#1");
        let t = words(WORDS_JSON).unwrap();
        for (k, p) in t.iter().filter(|(k, _)| k.starts_with("label.")) {
            let key = &k["label.".len()..];
            assert_eq!(label_text(key, Lang::Zh), p.zh);
            assert_eq!(label_text(key, Lang::En), p.en);
        }
        let why = engine::drill::Why {
            key: "no-such-reason".into(),
            args: BTreeMap::new(),
            at_ms: 10,
        };
        assert_eq!(why_text(&why, Lang::En), None);
        let why = engine::drill::Why {
            key: "expired".into(),
            args: [
                ("checkpoint", "2"),
                ("arrived_ms", "1950"),
                ("answer", "yes"),
            ]
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .into(),
            at_ms: 1_950,
        };
        assert_eq!(
            fill_why(
                "chk-{checkpoint}: {arrived_ms} ms, {answer}",
                &why,
                Lang::Zh
            ),
            "chk-2: 1950 ms, 是"
        );
    }

    #[test]
    fn every_reason_and_label_a_kind_gives_has_wording_in_both_languages() {
        let t = words(WORDS_JSON).unwrap_or_else(|e| panic!("{e}"));
        for kind in Kind::ALL {
            let base = engine::runner::load(kind.lesson()).unwrap();
            for variant in 0..5 {
                let ex = engine::drill::generate(kind, &base, variant).unwrap();
                for b in &ex.blanks {
                    if let Some(why) = &b.why {
                        let key = format!("why.{}", why.key);
                        let p = t
                            .get(&key)
                            .unwrap_or_else(|| panic!("{}: no {key}", kind.key()));
                        for text in [&p.zh, &p.en] {
                            for hole in text.split('{').skip(1).filter_map(|r| r.split_once('}')) {
                                assert!(
                                    why.args.contains_key(hole.0),
                                    "{key}: no value for {{{}}}",
                                    hole.0
                                );
                            }
                        }
                    }
                    let scenario = serde_json::to_string(&ex.scenario).unwrap();
                    for l in &b.labels {
                        // A wording key (lower-case letters and `_` only) is worded;
                        // an operator's uid is shown as the stage names it.
                        let uid = scenario.contains(&format!("\"uid\":\"{l}\""));
                        if !uid && l.chars().all(|c| c.is_ascii_lowercase() || c == '_') {
                            assert!(t.contains_key(&format!("label.{l}")), "label.{l}");
                        }
                    }
                }
            }
        }
    }
}
