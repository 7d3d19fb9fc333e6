//! Guided tours: what each step says, where it goes, what it points at.
//!
//! A tour is a data file, `assets/tours/<scenario>.json` (a teacher edits
//! sentences, not Rust), compiled in for the tests (the `bundled` feature) and
//! fetched by the page when its lesson opens ([`provide`], `src/data.rs`):
//!
//! ```json
//! {"scenario": "odd-even-sum",
//!  "title": {"zh": "…", "en": "…"},
//!  "steps": [
//!    {"goto": {"event": {"type": "checkpoint_completed", "checkpoint": 1}},
//!     "highlight": {"panel": "storage"},
//!     "text": {"zh": "…", "en": "…"},
//!     "ask": {"zh": "…", "en": "…"}, "answer": {"zh": "…", "en": "…"},
//!     "choices": [{"zh": "…", "zh-Hant": "…", "en": "…", "right": true},
//!                 {"zh": "…", "zh-Hant": "…", "en": "…"}, …]}]}
//! ```
//!
//! `goto` is a moment of the run: `{"at_ms": 700}` (the last step at or before that
//! simulated time) or `{"event": {…}, "nth": 2}` (the step after which the n-th
//! trace event whose fields include all those given has happened; field names as
//! in `lab run --trace`). `highlight` names a subtask (`{"task": "sum#0"}`), a
//! channel (`{"channel": "numbers#0->parity#0"}`) or a side-panel tab
//! (`{"panel": "storage"}`; coordinator, storage, sink, narration), and with a
//! panel the row the step talks about (`{"panel": "storage", "row": "chk-1"}`:
//! see [`ROW_FORMS`]), which the page scrolls into view inside its panel (above
//! the sheet on a phone) and rings. A step with
//! `ask` pauses for the class to predict; `answer` is revealed on click.
//!
//! Every `ask` comes with `choices`: 3 or 4 short answers to pick from (large
//! buttons on a phone, a class's vote), each in every language (`zh`, `zh-Hant`,
//! `en`), all different, exactly one with `"right": true`. The right one says
//! what the `answer` says; the others are the misconceptions a class brings.
//! What a choice says about Flink is covered by its step's `sources`.
//! [`Step::choice_texts`] and [`Step::right_choice`] give them to any view.
//!
//! A step that sends the class to the same job under another checkpointing mode,
//! or to another lesson, says so with `invites`: `{"mode": "aligned"}` or
//! `{"lesson": "state-backend-rocksdb"}`, and optionally `then` (`{"zh", "en"}`),
//! what the step says once the change is made. The card offers the change as a
//! button, and making it — there or with the top bar's pickers — keeps the tour
//! ([`carry_over`]) instead of ending it.
//!
//! Positions are found by running the scenario's own [`World`] (the same engine the
//! page plays), so a tour can never point at a moment that does not happen. Pure:
//! no `web_sys`, unit-tested natively.

use std::cell::RefCell;
use std::collections::BTreeMap;

use engine::scenario::{Localized, Scenario};
use engine::view::JobView;
use engine::World;
use serde::Deserialize;
use serde_json::{Map, Value};

use crate::i18n::Lang;
use crate::lessons::notes::NotesCallout;

/// Declares the tours once: the lessons that have one and, with the `bundled`
/// feature, their text, `assets/tours/<lesson>.json`.
macro_rules! tours {
    ($($name:literal,)*) => {
        /// The lessons that have a tour.
        pub const NAMES: &[&str] = &[$($name),*];

        /// The tours, by scenario name, compiled in (the `bundled` feature; the
        /// page fetches each when its lesson opens, see [`provide`]).
        #[cfg(feature = "bundled")]
        pub const TOURS: &[(&str, &str)] = &[
            $(($name, include_str!(concat!("../../assets/tours/", $name, ".json")))),*
        ];
    };
}

tours! {
    "state-types",
    "pv-count",
    "barrier-alignment",
    "unaligned-backpressure",
    "at-least-once-duplicates",
    "odd-even-sum",
    "exactly-once-kafka",
    "exactly-once-kafka-plain",
    "restart-fixed-delay",
    "restart-failure-rate",
    "restart-none",
    "restart-exponential-delay",
    "checkpoint-config",
    "checkpoint-config-strict",
    "savepoint-rescale",
    "savepoint-upgrade",
    "broadcast-rules",
    "state-backend-rocksdb",
    "state-backend-hashmap",
    "jobmanager-storage-limit",
    "jobmanager-crash-jobmanager",
    "jobmanager-crash-filesystem",
    // The interview questions' lessons.
    "checkpoint-vs-savepoint",
    "restore-claim",
    "restore-no-claim",
    "alignment-isolated",
    "alignment-isolated-at-least-once",
    "state-reduce-aggregate",
    "two-phase-commit",
    // Production pitfalls.
    "backpressure-expired",
    "backpressure-aligned-timeout",
    "kafka-transaction-timeout",
    "kafka-transaction-timeout-long",
    // Failover.
    "region-failover-forward",
    "region-failover-rebalance",
}

thread_local! {
    /// Tours supplied by [`provide`] (fetched), by lesson.
    static PROVIDED: RefCell<BTreeMap<String, Tour>> = const { RefCell::new(BTreeMap::new()) };
}

/// Whether the tour of `lesson` is here (compiled in or supplied); a lesson
/// without a tour has nothing to wait for.
pub fn available(lesson: &str) -> bool {
    #[cfg(feature = "bundled")]
    if TOURS.iter().any(|(n, _)| *n == lesson) {
        return true;
    }
    !NAMES.contains(&lesson) || PROVIDED.with(|p| p.borrow().contains_key(lesson))
}

/// Supplies the tour of `lesson` (the fetched `tours/<lesson>.json`): checked as
/// the tests check the compiled-in ones; the error names the file and the field.
pub fn provide(lesson: &str, json: &str) -> Result<(), TourError> {
    if !NAMES.contains(&lesson) {
        return Err(TourError::NoTour {
            lesson: lesson.to_string(),
        });
    }
    let tour = Tour::parse(json).map_err(|e| TourError::InFile {
        lesson: lesson.to_string(),
        error: Box::new(e),
    })?;
    PROVIDED.with(|p| p.borrow_mut().insert(lesson.to_string(), tour));
    Ok(())
}

/// Side-panel tabs a step may point at (the `data-tab` keys of the side panel).
pub const PANELS: [&str; 4] = ["coordinator", "storage", "sink", "narration"];

/// Simulated time after which a search for a tour position gives up.
const SEARCH_LIMIT_MS: u64 = engine::runner::DEFAULT_LIMIT_MS;

/// A guided tour of one built-in scenario.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tour {
    /// The built-in scenario it walks through.
    pub scenario: String,
    /// Its title.
    pub title: Localized,
    /// Where the title's claim about Flink comes from (see [`crate::lessons::sources`]).
    #[serde(default)]
    pub sources: Vec<String>,
    /// Its steps, in order.
    pub steps: Vec<Step>,
}

/// One step of a tour.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    /// The moment of the run the step shows.
    pub goto: Goto,
    /// What to point at, if anything.
    #[serde(default)]
    pub highlight: Option<Target>,
    /// The narration.
    pub text: Localized,
    /// Where what the step says about Flink comes from: classes, options, documentation
    /// pages, or `"none"` (see [`crate::lessons::sources`]).
    #[serde(default)]
    pub sources: Vec<String>,
    /// A question for the class to answer before going on.
    #[serde(default)]
    pub ask: Option<Localized>,
    /// The answer, revealed on click.
    #[serde(default)]
    pub answer: Option<Localized>,
    /// The answers to pick from before the reveal (with `ask`; one is right).
    #[serde(default)]
    pub choices: Vec<Choice>,
    /// Where the step meets an outdated claim of the learners' notes: the claim
    /// and what Flink does.
    #[serde(default)]
    pub notes: Option<NotesCallout>,
    /// A change of mode or lesson the step asks the class to make.
    #[serde(default)]
    pub invites: Option<Invite>,
}

/// One answer to a step's question, in every language.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Choice {
    /// Simplified Chinese.
    pub zh: String,
    /// Traditional Chinese (generated from `zh` by `scripts/hant.cjs`).
    #[serde(rename = "zh-Hant", default)]
    pub zh_hant: Option<String>,
    /// English.
    pub en: String,
    /// Whether it is the right answer (exactly one of a step's is).
    #[serde(default)]
    pub right: bool,
}

impl Choice {
    /// Its text in `lang`.
    pub fn text(&self, lang: Lang) -> &str {
        match lang {
            Lang::Zh => &self.zh,
            Lang::ZhHant => self.zh_hant.as_deref().unwrap_or(&self.zh),
            Lang::En => &self.en,
        }
    }
}

impl Step {
    /// The texts of the step's choices in `lang`, in their order (empty for a
    /// step without a question).
    pub fn choice_texts(&self, lang: Lang) -> Vec<&str> {
        self.choices.iter().map(|c| c.text(lang)).collect()
    }

    /// Which of [`Step::choice_texts`] is the right answer (`None` without
    /// choices).
    pub fn right_choice(&self) -> Option<usize> {
        self.choices.iter().position(|c| c.right)
    }
}

/// Why a tour file, or a target it names, is not usable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TourError {
    /// A file supplied for a lesson that has no tour.
    NoTour {
        /// The lesson.
        lesson: String,
    },
    /// A supplied file that does not check: the file's lesson and why.
    InFile {
        /// The lesson whose `tours/<lesson>.json` it is.
        lesson: String,
        /// What is wrong in it.
        error: Box<TourError>,
    },
    /// Not JSON of a tour's shape (serde's message names the field).
    Json(String),
    /// A field that breaks a rule: the tour's scenario and the message, which
    /// names the step (from 1) and the field.
    Field {
        /// The tour's scenario.
        tour: String,
        /// What is wrong, naming where (`steps[2].choices[3].en: …`).
        message: String,
    },
    /// A highlight that names nothing in the job: the field and why.
    Target(String),
    /// The lesson's scenario does not run (the engine's message).
    Run(String),
    /// A step's `goto` names a moment this run never reaches (its index from 1).
    NeverHappens {
        /// The tour's scenario.
        tour: String,
        /// The step, from 1.
        step: usize,
    },
}

impl std::fmt::Display for TourError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TourError::NoTour { lesson } => {
                write!(f, "tours/{lesson}.json: {lesson:?} has no tour")
            }
            TourError::InFile { lesson, error } => write!(f, "tours/{lesson}.json: {error}"),
            TourError::Json(e) => write!(f, "tour: {e}"),
            TourError::Field { tour, message } => write!(f, "tour {tour}: {message}"),
            TourError::Target(e) => f.write_str(e),
            TourError::Run(e) => f.write_str(e),
            TourError::NeverHappens { tour, step } => write!(
                f,
                "tour {tour}: steps[{step}].goto: that moment never happens in this run"
            ),
        }
    }
}

impl std::error::Error for TourError {}

/// A change a step asks for: exactly one of `mode` or `lesson`.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Invite {
    /// The checkpointing mode to rerun the same job under (`aligned`,
    /// `unaligned`, `at-least-once`).
    #[serde(default)]
    pub mode: Option<String>,
    /// The built-in lesson to open (one with a tour).
    #[serde(default)]
    pub lesson: Option<String>,
    /// What the step says once the change is made (its `text` otherwise).
    #[serde(default)]
    pub then: Option<Localized>,
}

/// A moment of the run: exactly one of `at_ms` or `event`.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Goto {
    /// The last step at or before this simulated time.
    #[serde(default)]
    pub at_ms: Option<u64>,
    /// The step after which an event with these fields has happened.
    #[serde(default)]
    pub event: Option<Map<String, Value>>,
    /// Which occurrence of `event` (from 1; default 1).
    #[serde(default)]
    pub nth: Option<u32>,
}

/// What a step points at: exactly one field.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Target {
    /// A subtask, `"uid#index"`.
    #[serde(default)]
    pub task: Option<String>,
    /// A channel, `"sender#i->receiver#j"`.
    #[serde(default)]
    pub channel: Option<String>,
    /// A side-panel tab (see [`PANELS`]).
    #[serde(default)]
    pub panel: Option<String>,
    /// With `panel`: the row of that panel the step talks about (see [`ROW_FORMS`]).
    #[serde(default)]
    pub row: Option<String>,
}

/// The rows a step may name in its panel: `chk-N` (a checkpoint's row in the
/// storage list or the coordinator's pending / history list), `TN` (a
/// transaction of the sink panel), `read_committed` / `read_uncommitted` (the
/// sink panel's two readers) and `verdicts` (the sink panel's meter).
pub const ROW_FORMS: &str = "chk-N, TN, read_committed, read_uncommitted or verdicts";

/// The CSS selector, inside its panel, of the row `row` names; `None` when it
/// is none of [`ROW_FORMS`].
pub fn row_selector(row: &str) -> Option<String> {
    let number = |s: &str| s.parse::<u64>().ok().map(|n| n.to_string());
    if let Some(n) = row.strip_prefix("chk-").and_then(number) {
        return Some(format!("[data-checkpoint=\"{n}\"]"));
    }
    if let Some(n) = row.strip_prefix('T').and_then(number) {
        return Some(format!("[data-txn=\"{n}\"]"));
    }
    match row {
        "read_committed" => Some(".consumer--committed".into()),
        "read_uncommitted" => Some(".consumer--uncommitted".into()),
        "verdicts" => Some(".verdicts".into()),
        _ => None,
    }
}

/// The selector of the row a step's `target` names, inside its panel's tab
/// panel (`#tabpanel-storage [data-checkpoint="1"]`).
pub fn row_in_panel(target: &Target) -> Option<String> {
    let (panel, row) = (target.panel.as_deref()?, target.row.as_deref()?);
    Some(format!("#tabpanel-{panel} {}", row_selector(row)?))
}

/// The text of `l` in `lang`.
pub fn text(l: &Localized, lang: Lang) -> &str {
    lang.loc(l)
}

impl Tour {
    /// Parses and checks a tour file; the error names the file's scenario, the step
    /// (from 1) and the field.
    pub fn parse(json: &str) -> Result<Tour, TourError> {
        let tour: Tour = serde_json::from_str(json).map_err(|e| TourError::Json(e.to_string()))?;
        tour.check().map_err(|message| TourError::Field {
            tour: tour.scenario.clone(),
            message,
        })?;
        Ok(tour)
    }

    /// The first broken rule, naming the step and the field.
    fn check(&self) -> Result<(), String> {
        let both = |l: &Localized, what: &str| {
            if l.zh.trim().is_empty() || l.en.trim().is_empty() {
                Err(format!("{what} needs both zh and en"))
            } else {
                Ok(())
            }
        };
        both(&self.title, "title")?;
        if self.steps.is_empty() {
            return Err("steps is empty".into());
        }
        for (i, s) in self.steps.iter().enumerate() {
            let at = format!("steps[{}]", i + 1);
            both(&s.text, &format!("{at}.text"))?;
            match (&s.ask, &s.answer) {
                (Some(q), Some(a)) => {
                    both(q, &format!("{at}.ask"))?;
                    both(a, &format!("{at}.answer"))?;
                    check_choices(&s.choices, &at)?;
                }
                (None, None) if s.choices.is_empty() => {}
                (None, None) => {
                    return Err(format!("{at}.choices: only a step with ask has choices"))
                }
                _ => return Err(format!("{at}: ask and answer come together")),
            }
            match (&s.goto.at_ms, &s.goto.event) {
                (Some(_), None) if s.goto.nth.is_none() => {}
                (None, Some(e)) if !e.is_empty() && s.goto.nth != Some(0) => {}
                _ => {
                    return Err(format!(
                        "{at}.goto needs exactly one of at_ms or a non-empty event (nth from 1, only with event)"
                    ))
                }
            }
            if let Some(c) = &s.notes {
                c.check().map_err(|e| format!("{at}.{e}"))?;
            }
            if let Some(inv) = &s.invites {
                check_invite(inv, &at)?;
                if let Some(then) = &inv.then {
                    both(then, &format!("{at}.invites.then"))?;
                }
            }
            if let Some(t) = &s.highlight {
                let n = [&t.task, &t.channel, &t.panel]
                    .iter()
                    .filter(|x| x.is_some())
                    .count();
                if n != 1 {
                    return Err(format!(
                        "{at}.highlight needs exactly one of task, channel or panel"
                    ));
                }
                match (&t.row, &t.panel) {
                    (Some(_), None) => {
                        return Err(format!("{at}.highlight.row: only with panel"));
                    }
                    (Some(r), Some(_)) if row_selector(r).is_none() => {
                        return Err(format!(
                            "{at}.highlight.row: {r:?} is not one of {ROW_FORMS}"
                        ));
                    }
                    _ => {}
                }
            }
        }
        Ok(())
    }
}

/// Checks a step's `invites`: exactly one of a known mode or a lesson with a tour.
fn check_invite(inv: &Invite, at: &str) -> Result<(), String> {
    match (&inv.mode, &inv.lesson) {
        (Some(m), None) => {
            if !MODES.contains(&m.as_str()) {
                return Err(format!("{at}.invites.mode: {m:?} is not one of {MODES:?}"));
            }
        }
        (None, Some(l)) => {
            if !NAMES.contains(&l.as_str()) {
                return Err(format!(
                    "{at}.invites.lesson: {l:?} is not a lesson with a tour"
                ));
            }
        }
        _ => return Err(format!("{at}.invites needs exactly one of mode or lesson")),
    }
    Ok(())
}

/// How many choices a question offers: enough to make the class think, few
/// enough to be large buttons on a phone.
pub const CHOICES: std::ops::RangeInclusive<usize> = 3..=4;

/// Checks a question's `choices`: 3 or 4, each non-empty in every language and
/// different from the others, exactly one right.
fn check_choices(choices: &[Choice], at: &str) -> Result<(), String> {
    if !CHOICES.contains(&choices.len()) {
        return Err(format!(
            "{at}.choices: a question needs 3 or 4 choices, not {}",
            choices.len()
        ));
    }
    for (j, c) in choices.iter().enumerate() {
        let here = format!("{at}.choices[{}]", j + 1);
        let langs = [
            ("zh", Some(&c.zh)),
            ("zh-Hant", c.zh_hant.as_ref()),
            ("en", Some(&c.en)),
        ];
        for (lang, text) in langs {
            let Some(text) = text.filter(|t| !t.trim().is_empty()) else {
                return Err(format!("{here}.{lang} is missing or empty"));
            };
            let same = choices[..j].iter().position(|o| {
                let other = match lang {
                    "zh" => Some(&o.zh),
                    "zh-Hant" => o.zh_hant.as_ref(),
                    _ => Some(&o.en),
                };
                other.is_some_and(|o| o.trim() == text.trim())
            });
            if let Some(k) = same {
                return Err(format!(
                    "{here}.{lang} says the same as choices[{}]: {text:?}",
                    k + 1
                ));
            }
        }
    }
    match choices.iter().filter(|c| c.right).count() {
        1 => Ok(()),
        n => Err(format!(
            "{at}.choices: exactly one needs \"right\": true, not {n}"
        )),
    }
}

/// The checkpointing modes a step may invite (the mode picker's keys).
pub const MODES: [&str; 3] = ["aligned", "unaligned", "at-least-once"];

/// Whether the run of `scenario` in `mode` (a [`MODES`] key) is the one `invite`
/// asks for (a mode invitation stays within its tour's lesson).
pub fn invite_met(invite: &Invite, scenario: &str, mode: &str) -> bool {
    match (&invite.mode, &invite.lesson) {
        (Some(m), _) => m == mode,
        (_, Some(l)) => l == scenario,
        _ => false,
    }
}

/// Where a tour goes on when the run changes under it: the step `at` (of the
/// tour of `before`) invited the change to `scenario` in `mode`, whose tour is
/// `next`. A new mode keeps the step (now shown in the other mode); a new lesson
/// goes to its tour's step at the same moment of the run (the same `goto`), or
/// its first. `None` when the step invited nothing, or something else: the tour
/// belonged to the run that ended.
pub fn carry_over(
    before: &str,
    at: usize,
    step: &Step,
    scenario: &str,
    mode: &str,
    next: &Tour,
) -> Option<usize> {
    let invite = step.invites.as_ref()?;
    let same_lesson = invite.lesson.is_some() || scenario == before;
    if !same_lesson || !invite_met(invite, scenario, mode) || next.steps.is_empty() {
        return None;
    }
    if invite.mode.is_some() {
        return Some(at.min(next.steps.len() - 1));
    }
    Some(
        next.steps
            .iter()
            .position(|s| s.goto == step.goto)
            .unwrap_or(0),
    )
}

/// The tour of the built-in scenario `scenario`, if it has one (compiled in or
/// supplied). A tour that fails to parse is absent (the native tests make sure
/// none does).
pub fn tour_for(scenario: &str) -> Option<Tour> {
    #[cfg(feature = "bundled")]
    if let Some((_, json)) = TOURS.iter().find(|(n, _)| *n == scenario) {
        return Tour::parse(json).ok();
    }
    PROVIDED.with(|p| p.borrow().get(scenario).cloned())
}

/// Whether `event` (a trace event as JSON) has every field of `pattern`.
pub fn matches(event: &Value, pattern: &Map<String, Value>) -> bool {
    pattern.iter().all(|(k, v)| event.get(k) == Some(v))
}

/// The engine step each of `tour`'s steps goes to, for `scenario` run with `seed`:
/// one pass of the engine. Errors name the step whose moment never happens.
pub fn positions(tour: &Tour, scenario: &Scenario, seed: u64) -> Result<Vec<u64>, TourError> {
    positions_each(tour, scenario, seed)?.into_iter().collect()
}

/// The engine step of each of `tour`'s steps, each on its own: a run of the
/// lesson in another mode may not reach every step (an aligned run has no
/// barrier overtaking records) and still reach the one a tour goes on at. The
/// error of a step names it; the outer error is a scenario that does not run.
pub fn positions_each(
    tour: &Tour,
    scenario: &Scenario,
    seed: u64,
) -> Result<Vec<Result<u64, TourError>>, TourError> {
    let mut world = World::new(scenario, seed).map_err(|e| TourError::Run(e.to_string()))?;
    world.set_tracing(true);
    let n = tour.steps.len();
    let mut found: Vec<Option<u64>> = tour
        .steps
        .iter()
        .map(|s| {
            if s.goto.at_ms.is_some() {
                Some(0)
            } else {
                None
            }
        })
        .collect();
    let mut seen = vec![0u32; n];
    while world.next_at().is_some_and(|t| t <= SEARCH_LIMIT_MS) {
        let Some(events) = world.step() else { break };
        let events: Vec<Value> = events
            .iter()
            .filter_map(|e| serde_json::to_value(e).ok())
            .collect();
        let (now, steps) = (world.now(), world.steps());
        for (i, s) in tour.steps.iter().enumerate() {
            if let Some(t) = s.goto.at_ms {
                if now <= t {
                    found[i] = Some(steps);
                }
            } else if let (Some(p), None) = (&s.goto.event, found[i]) {
                seen[i] += events.iter().filter(|e| matches(e, p)).count() as u32;
                if seen[i] >= s.goto.nth.unwrap_or(1) {
                    found[i] = Some(steps);
                }
            }
        }
    }
    Ok(found
        .into_iter()
        .enumerate()
        .map(|(i, f)| {
            f.ok_or_else(|| TourError::NeverHappens {
                tour: tour.scenario.clone(),
                step: i + 1,
            })
        })
        .collect())
}

/// The CSS selector of the page element `target` names, or an error naming what
/// does not exist in `job`. Only names found in the job are returned, so the
/// selector never carries arbitrary text.
pub fn selector(target: &Target, job: &JobView) -> Result<String, TourError> {
    selector_text(target, job).map_err(TourError::Target)
}

fn selector_text(target: &Target, job: &JobView) -> Result<String, String> {
    if let Some(task) = &target.task {
        return job
            .tasks
            .iter()
            .find(|t| &*t.name == task.as_str())
            .map(|t| format!("[data-task=\"{}\"]", t.name))
            .ok_or_else(|| format!("highlight.task: no subtask {task:?} in this job"));
    }
    if let Some(channel) = &target.channel {
        let (from, to) = channel.split_once("->").ok_or_else(|| {
            format!("highlight.channel: {channel:?} is not \"sender#i->receiver#j\"")
        })?;
        let name = |id: engine::view::TaskId| &*job.tasks[id.0 as usize].name;
        return job
            .channels
            .iter()
            .position(|c| name(c.from) == from.trim() && name(c.to) == to.trim())
            .map(|i| format!("[data-channel=\"{i}\"]"))
            .ok_or_else(|| format!("highlight.channel: no channel {channel:?} in this job"));
    }
    if let Some(panel) = &target.panel {
        return PANELS
            .iter()
            .find(|p| **p == panel.as_str())
            .map(|p| format!("#tab-{p}"))
            .ok_or_else(|| format!("highlight.panel: {panel:?} is not one of {PANELS:?}"));
    }
    Err("highlight: names nothing".into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lessons::pair::partners;
    use engine::runner;

    /// Guards the teacher-edited files: every tour parses, is for a built-in, has
    /// both languages in every step, and each step's moment and target exist.
    #[test]
    fn every_tour_parses_and_points_at_real_moments_and_elements() {
        for (name, json) in TOURS {
            let tour = Tour::parse(json).unwrap_or_else(|e| panic!("{name}.json: {e}"));
            assert_eq!(&tour.scenario, name, "{name}.json names another scenario");
            let scenario =
                runner::load(name).unwrap_or_else(|e| panic!("{name}: not a built-in: {e}"));
            let world = World::new(&scenario, scenario.seed).unwrap();
            let job = world.job_view();
            let pos = positions(&tour, &scenario, scenario.seed).unwrap_or_else(|e| panic!("{e}"));
            assert!(
                pos.windows(2).all(|w| w[0] <= w[1]),
                "{name}: steps go back in time: {pos:?}"
            );
            for (i, s) in tour.steps.iter().enumerate() {
                if let Some(t) = &s.highlight {
                    selector(t, &job).unwrap_or_else(|e| panic!("{name} step {}: {e}", i + 1));
                    if let (Some(panel), Some(row)) = (&t.panel, &t.row) {
                        let mut w = World::new(&scenario, scenario.seed).unwrap();
                        while w.steps() < pos[i] && w.step().is_some() {}
                        assert!(
                            row_shown(&w.view(), panel, row),
                            "{name} step {}: the {panel} panel has no row {row} at its moment",
                            i + 1
                        );
                    }
                }
            }
        }
    }

    /// Whether `panel` shows the row `row` names in `view` (what the panels list).
    fn row_shown(view: &engine::view::WorldView, panel: &str, row: &str) -> bool {
        let c = &view.coordinator;
        if let Some(n) = row.strip_prefix("chk-").and_then(|n| n.parse::<u64>().ok()) {
            return match panel {
                "storage" => c.storage.iter().any(|s| s.id.0 == n),
                "coordinator" => {
                    c.pending.iter().any(|p| p.id.0 == n) || c.history.iter().any(|h| h.id.0 == n)
                }
                _ => false,
            };
        }
        if panel != "sink" {
            return false;
        }
        match row.strip_prefix('T').and_then(|n| n.parse::<u64>().ok()) {
            Some(n) => view.sinks.iter().any(|s| s.txns.iter().any(|t| t.id == n)),
            None => !view.sinks.is_empty(),
        }
    }

    #[test]
    fn a_row_is_named_only_in_a_panel_and_in_a_known_form() {
        let tour = |h: &str| {
            format!(
                r#"{{"scenario": "odd-even-sum", "title": {{"zh": "t", "en": "t"}}, "steps": [
                {{"goto": {{"at_ms": 0}}, "highlight": {h}, "text": {{"zh": "x", "en": "y"}}}}]}}"#
            )
        };
        let err = Tour::parse(&tour(r#"{"task": "sum#0", "row": "chk-1"}"#))
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("steps[1].highlight.row: only with panel"),
            "{err}"
        );
        let err = Tour::parse(&tour(r#"{"panel": "storage", "row": "chk-x"}"#))
            .unwrap_err()
            .to_string();
        assert!(err.contains("\"chk-x\" is not one of chk-N"), "{err}");
        let t = Tour::parse(&tour(r#"{"panel": "storage", "row": "chk-1"}"#)).unwrap();
        let h = t.steps[0].highlight.as_ref().unwrap();
        assert_eq!(
            row_in_panel(h).as_deref(),
            Some("#tabpanel-storage [data-checkpoint=\"1\"]")
        );
        assert_eq!(row_selector("T12").as_deref(), Some("[data-txn=\"12\"]"));
        assert_eq!(
            row_selector("read_committed").as_deref(),
            Some(".consumer--committed")
        );
        assert_eq!(row_selector("T1\"]"), None);
    }

    /// A step that sends the class to a lesson pair quotes the ⋯ menu's item word
    /// for word (where the compare action lives), naming a real partner.
    #[test]
    fn tours_quote_the_compare_item_as_the_menu_shows_it() {
        let mut quoted = 0;
        for (name, json) in TOURS {
            let tour = Tour::parse(json).unwrap();
            for (i, step) in tour.steps.iter().enumerate() {
                for lang in [Lang::Zh, Lang::En] {
                    let said = text(&step.text, lang);
                    let (mention, menu) = match lang {
                        Lang::Zh | Lang::ZhHant => ("并排对比", "⋯ 菜单"),
                        Lang::En => ("Compare with", "⋯ menu"),
                    };
                    if !said.contains(mention) {
                        continue;
                    }
                    let item = partners(name)
                        .into_iter()
                        .map(|p| {
                            crate::lessons::wording::t("pair_compare", lang).replace("{name}", p)
                        })
                        .find(|item| said.contains(item.as_str()));
                    assert!(item.is_some(), "{name} step {}: {said}", i + 1);
                    assert!(
                        said.contains(menu),
                        "{name} step {} does not say where: {said}",
                        i + 1
                    );
                    quoted += 1;
                }
            }
        }
        assert!(quoted >= 10, "{quoted} steps quote the compare item");
    }

    /// What a step's English text states about a checkpoint or a transaction by
    /// number: "checkpoint 1 is complete", "transaction 2 is pre-committed",
    /// "aborts transaction 2". Each clause (split at punctuation) is read from each
    /// number to the first status word after it.
    fn claims(text: &str) -> Vec<(&'static str, u64, &'static str)> {
        let mut out = Vec::new();
        for clause in text.split(['.', ',', ';', ':', '—', '(', ')']) {
            let words: Vec<String> = clause
                .split_whitespace()
                .map(|w| {
                    w.trim_matches(|c: char| !c.is_alphanumeric() && c != '-')
                        .to_lowercase()
                })
                .collect();
            for (i, w) in words.iter().enumerate() {
                let what = match w.as_str() {
                    "checkpoint" | "checkpoints" => "checkpoint",
                    "transaction" => "transaction",
                    _ => continue,
                };
                let Some(id) = words.get(i + 1).and_then(|n| n.parse::<u64>().ok()) else {
                    continue;
                };
                // "aborts transaction 2": the verb before the noun.
                if let Some(verb) = i.checked_sub(1).and_then(|j| words.get(j)) {
                    let status = match verb.as_str() {
                        "aborts" => Some("aborted"),
                        "commits" => Some("committed"),
                        "pre-commit" | "pre-commits" => Some("pre-committed"),
                        _ => None,
                    };
                    if let Some(status) = status {
                        out.push((what, id, status));
                        continue;
                    }
                }
                let rest: Vec<&str> = words[i + 2..]
                    .iter()
                    .map(String::as_str)
                    .take_while(|w| !matches!(*w, "checkpoint" | "transaction" | "if" | "had"))
                    .collect();
                // "did not complete" is a checkpoint that was aborted.
                let status = rest.iter().enumerate().find_map(|(j, w)| {
                    let negated = j > 0 && rest[j - 1] == "not";
                    match (*w, negated) {
                        ("complete" | "completes" | "completed", false) => Some("completed"),
                        ("complete", true) if what == "checkpoint" => Some("aborted"),
                        ("expires" | "expired" | "abandoned" | "aborted", false) => Some("aborted"),
                        ("pre-committed", false) => Some("pre-committed"),
                        ("committed", false) => Some("committed"),
                        _ => None,
                    }
                });
                if let Some(status) = status {
                    out.push((what, id, status));
                }
            }
        }
        out
    }

    /// Where a tour's text states that a checkpoint completed or was aborted, or
    /// that a transaction is pre-committed, committed or aborted, the engine's
    /// view at that step's moment agrees; and the Chinese text names the same
    /// checkpoint and transaction numbers as the English one.
    #[test]
    fn tours_name_checkpoints_and_transactions_as_the_engine_has_them() {
        use engine::view::CheckpointStatus;
        use engine::view::TxnStatus;
        let mut checked = 0;
        for (name, json) in TOURS {
            let tour = Tour::parse(json).unwrap();
            let scenario = runner::load(name).unwrap();
            let pos = positions(&tour, &scenario, scenario.seed).unwrap();
            for (i, step) in tour.steps.iter().enumerate() {
                let (en, zh) = (text(&step.text, Lang::En), text(&step.text, Lang::Zh));
                let said = claims(en);
                if said.is_empty() {
                    continue;
                }
                let mut world = World::new(&scenario, scenario.seed).unwrap();
                while world.steps() < pos[i] && world.step().is_some() {}
                let view = world.view();
                for (what, id, status) in said {
                    let actual = if what == "checkpoint" {
                        view.coordinator
                            .history
                            .iter()
                            .find(|c| c.id.0 == id)
                            .map(|c| match c.status {
                                CheckpointStatus::Completed => "completed",
                                CheckpointStatus::Aborted => "aborted",
                                CheckpointStatus::InProgress => "in progress",
                            })
                    } else {
                        view.sinks
                            .iter()
                            .flat_map(|s| &s.txns)
                            .find(|t| t.id == id)
                            .map(|t| match t.status {
                                TxnStatus::Open => "open",
                                TxnStatus::Precommitted => "pre-committed",
                                TxnStatus::Committed => "committed",
                                TxnStatus::Aborted => "aborted",
                            })
                    };
                    assert_eq!(
                        actual,
                        Some(status),
                        "{name} step {}: the text says {what} {id} is {status} at {} ms: {en}",
                        i + 1,
                        view.now
                    );
                    checked += 1;
                    let zh_noun = if what == "checkpoint" {
                        "检查点"
                    } else {
                        "事务"
                    };
                    assert!(
                        zh.contains(&format!("{zh_noun} {id}"))
                            || zh.contains(&format!("{zh_noun}{id}")),
                        "{name} step {}: the zh text does not name {zh_noun} {id}: {zh}",
                        i + 1
                    );
                }
            }
        }
        assert!(checked >= 20, "{checked} statements checked");
    }

    #[test]
    fn claims_are_read_from_each_number_to_its_status_word() {
        assert_eq!(
            claims("Checkpoint 1 is complete and transaction 1 is committed: consumers see it."),
            vec![
                ("checkpoint", 1, "completed"),
                ("transaction", 1, "committed")
            ]
        );
        assert_eq!(
            claims(
                "On restore the sink aborts transaction 2, and the job replays from checkpoint 1."
            ),
            vec![("transaction", 2, "aborted")]
        );
        assert_eq!(
            claims(
                "checkpoint 2 is abandoned, and transaction 2 is pre-committed but not committed."
            ),
            vec![
                ("checkpoint", 2, "aborted"),
                ("transaction", 2, "pre-committed")
            ]
        );
    }

    #[test]
    fn a_bad_tour_names_the_step_and_field() {
        let ok = r#"{"goto": {"at_ms": 0}, "text": {"zh": "x", "en": "y"}}"#;
        let tour = |steps: &str| {
            format!(
                r#"{{"scenario": "s", "title": {{"zh": "t", "en": "t"}}, "steps": [{ok}, {steps}]}}"#
            )
        };
        let err = Tour::parse(&tour(
            r#"{"goto": {"at_ms": 0}, "text": {"zh": "", "en": "y"}}"#,
        ))
        .unwrap_err()
        .to_string();
        assert!(err.contains("steps[2].text") && err.contains("zh"), "{err}");
        let err = Tour::parse(&tour(r#"{"goto": {}, "text": {"zh": "x", "en": "y"}}"#))
            .unwrap_err()
            .to_string();
        assert!(err.contains("steps[2].goto"), "{err}");
        let err = Tour::parse(&tour(r#"{"goto": {"at_ms": 1}, "text": {"zh": "x", "en": "y"}, "ask": {"zh": "q", "en": "q"}}"#)).unwrap_err().to_string();
        assert!(err.contains("ask and answer"), "{err}");
        let err = Tour::parse(&tour(
            r#"{"goto": {"at_ms": 1}, "txt": {"zh": "x", "en": "y"}}"#,
        ))
        .unwrap_err()
        .to_string();
        assert!(err.contains("txt"), "{err}");
    }

    /// A question's choices: 3 or 4, every language, all different, exactly one
    /// right; a question without them and choices without a question are errors
    /// naming the step and the field.
    #[test]
    fn a_bad_choice_names_the_step_and_field() {
        let c = |zh: &str, en: &str, right: bool| {
            format!(r#"{{"zh": "{zh}", "zh-Hant": "{zh}", "en": "{en}", "right": {right}}}"#)
        };
        let tour = |choices: &[String]| {
            format!(
                r#"{{"scenario": "s", "title": {{"zh": "t", "en": "t"}}, "steps": [{{"goto": {{"at_ms": 0}}, "text": {{"zh": "x", "en": "y"}}}}, {{"goto": {{"at_ms": 1}}, "text": {{"zh": "x", "en": "y"}}, "ask": {{"zh": "q", "en": "q"}}, "answer": {{"zh": "a", "en": "a"}}, "choices": [{}]}}]}}"#,
                choices.join(", ")
            )
        };
        let good = [c("甲", "a", false), c("乙", "b", true), c("丙", "c", false)];
        let parsed = Tour::parse(&tour(&good)).unwrap();
        let step = &parsed.steps[1];
        assert_eq!(step.choice_texts(Lang::En), ["a", "b", "c"]);
        assert_eq!(step.choice_texts(Lang::ZhHant), ["甲", "乙", "丙"]);
        assert_eq!(step.right_choice(), Some(1));
        assert_eq!(parsed.steps[0].right_choice(), None);

        let err = |choices: &[String]| Tour::parse(&tour(choices)).unwrap_err().to_string();
        let e = err(&good[..2]);
        assert!(
            e.contains("tour s: steps[2].choices") && e.contains("not 2"),
            "{e}"
        );
        let five: Vec<String> = (0..5)
            .map(|i| c(&format!("{i}"), &format!("{i}"), i == 0))
            .collect();
        assert!(err(&five).contains("not 5"));
        let e = err(&[c("甲", "a", true), c("乙", "b", true), c("丙", "c", false)]);
        assert!(
            e.contains("steps[2].choices: exactly one") && e.contains("not 2"),
            "{e}"
        );
        let e = err(&[
            c("甲", "a", false),
            c("乙", "b", false),
            c("丙", "c", false),
        ]);
        assert!(e.contains("not 0"), "{e}");
        let e = err(&[c("甲", "a", true), c("乙", " ", false), c("丙", "c", false)]);
        assert!(e.contains("steps[2].choices[2].en"), "{e}");
        let e = err(&[c("甲", "a", true), c("乙", "a", false), c("丙", "c", false)]);
        assert!(
            e.contains("steps[2].choices[2].en says the same as choices[1]"),
            "{e}"
        );
        let e = err(&[c("甲", "a", true), c("甲", "b", false), c("丙", "c", false)]);
        assert!(e.contains("steps[2].choices[2].zh says the same"), "{e}");
        let no_hant = r#"{"zh": "丁", "en": "d"}"#.to_string();
        let e = err(&[good[0].clone(), good[1].clone(), no_hant]);
        assert!(e.contains("steps[2].choices[3].zh-Hant"), "{e}");
        let e = Tour::parse(&tour(&[]).replace(r#", "choices": []"#, ""))
            .unwrap_err()
            .to_string();
        assert!(e.contains("steps[2].choices") && e.contains("not 0"), "{e}");
        let e = Tour::parse(&tour(&good).replace(
            r#""ask": {"zh": "q", "en": "q"}, "answer": {"zh": "a", "en": "a"}, "#,
            "",
        ))
        .unwrap_err()
        .to_string();
        assert!(e.contains("steps[2].choices: only a step with ask"), "{e}");
    }

    /// Every question of every tour offers its choices (the parse requires them),
    /// and the right one is not always in the same place, so a class cannot
    /// learn the position instead of the answer.
    #[test]
    fn every_question_of_the_tours_has_choices() {
        let mut asked = 0;
        let mut at = [0usize; 4];
        for (name, json) in TOURS {
            let tour = Tour::parse(json).unwrap_or_else(|e| panic!("{name}.json: {e}"));
            for s in tour.steps.iter().filter(|s| s.ask.is_some()) {
                asked += 1;
                at[s.right_choice().expect("a right choice")] += 1;
                for lang in [Lang::Zh, Lang::ZhHant, Lang::En] {
                    assert!(CHOICES.contains(&s.choice_texts(lang).len()));
                }
            }
        }
        assert!(asked >= 54, "{asked} questions");
        assert!(
            at.iter().all(|&n| n * 2 < asked),
            "the right one's places: {at:?}"
        );
    }

    /// The steps that ask for a change of mode or lesson: the tour goes on in
    /// the changed run, at the step it asked from (a mode) or at the same moment
    /// of the other lesson's tour; any other change ends it.
    #[test]
    fn a_tour_goes_on_across_the_change_its_step_invites() {
        let unaligned = tour_for("unaligned-backpressure").unwrap();
        let (at, step) = unaligned
            .steps
            .iter()
            .enumerate()
            .find(|(_, s)| s.invites.is_some())
            .expect("the unaligned tour asks for the aligned mode");
        let name = "unaligned-backpressure";
        assert_eq!(
            carry_over(name, at, step, name, "aligned", &unaligned),
            Some(at)
        );
        assert_eq!(
            carry_over(name, at, step, name, "at-least-once", &unaligned),
            None,
            "a mode the step did not ask for ends the tour"
        );
        let other = tour_for("odd-even-sum").unwrap();
        assert_eq!(
            carry_over(name, at, step, "odd-even-sum", "aligned", &other),
            None
        );
        assert_eq!(
            carry_over(name, 0, &unaligned.steps[0], name, "aligned", &unaligned),
            None,
            "a step that invites nothing ends with its run"
        );

        let hashmap = tour_for("state-backend-hashmap").unwrap();
        let rocksdb = tour_for("state-backend-rocksdb").unwrap();
        let (at, step) = hashmap
            .steps
            .iter()
            .enumerate()
            .find(|(_, s)| s.invites.is_some())
            .expect("the hashmap tour sends the class to rocksdb");
        let to = carry_over(
            "state-backend-hashmap",
            at,
            step,
            "state-backend-rocksdb",
            "aligned",
            &rocksdb,
        )
        .expect("the rocksdb tour takes over");
        assert_eq!(rocksdb.steps[to].goto, step.goto, "the same moment");
        assert!(invite_met(
            step.invites.as_ref().unwrap(),
            "state-backend-rocksdb",
            "unaligned"
        ));
        assert!(!invite_met(
            step.invites.as_ref().unwrap(),
            "state-backend-hashmap",
            "aligned"
        ));

        // The aligned run of the unaligned lesson has no overtaking barrier
        // (step 2) but reaches the step the tour goes on at.
        let mut s = runner::load(name).unwrap();
        let opts = runner::RunOptions {
            mode: Some(runner::ModeOverride::Aligned),
            ..Default::default()
        };
        runner::apply_options(&mut s, &opts).unwrap();
        let each = positions_each(&unaligned, &s, s.seed).unwrap();
        assert!(each[1]
            .as_ref()
            .unwrap_err()
            .to_string()
            .contains("steps[2]"));
        assert!(each[2].is_ok());
        assert!(positions(&unaligned, &s, s.seed).is_err());
    }

    #[test]
    fn a_bad_invite_names_the_step_and_field() {
        let tour = |invite: &str| {
            format!(
                r#"{{"scenario": "s", "title": {{"zh": "t", "en": "t"}}, "steps": [{{"goto": {{"at_ms": 0}}, "text": {{"zh": "x", "en": "y"}}, "invites": {invite}}}]}}"#
            )
        };
        let err = Tour::parse(&tour(r#"{"mode": "exactly"}"#))
            .unwrap_err()
            .to_string();
        assert!(err.contains("steps[1].invites.mode"), "{err}");
        let err = Tour::parse(&tour(r#"{"lesson": "nope"}"#))
            .unwrap_err()
            .to_string();
        assert!(err.contains("steps[1].invites.lesson"), "{err}");
        let err = Tour::parse(&tour(r#"{"mode": "aligned", "lesson": "odd-even-sum"}"#))
            .unwrap_err()
            .to_string();
        assert!(err.contains("exactly one of mode or lesson"), "{err}");
        let err = Tour::parse(&tour(
            r#"{"mode": "aligned", "then": {"zh": "", "en": "y"}}"#,
        ))
        .unwrap_err()
        .to_string();
        assert!(err.contains("steps[1].invites.then"), "{err}");
        assert!(Tour::parse(&tour(r#"{"mode": "aligned"}"#)).is_ok());
    }

    #[test]
    fn moments_are_found_by_time_and_by_event() {
        let scenario = runner::load("odd-even-sum").unwrap();
        let json = r#"{"scenario": "odd-even-sum", "title": {"zh": "t", "en": "t"}, "steps": [
            {"goto": {"at_ms": 0}, "text": {"zh": "x", "en": "y"}},
            {"goto": {"event": {"type": "checkpoint_completed", "checkpoint": 1}}, "text": {"zh": "x", "en": "y"}},
            {"goto": {"event": {"type": "record_emitted"}, "nth": 7}, "text": {"zh": "x", "en": "y"}},
            {"goto": {"event": {"type": "checkpoint_completed", "checkpoint": 99}}, "text": {"zh": "x", "en": "y"}}]}"#;
        let mut tour = Tour::parse(json).unwrap();
        let err = positions(&tour, &scenario, 7).unwrap_err().to_string();
        assert!(err.contains("steps[4]"), "{err}");
        tour.steps.pop();
        let pos = positions(&tour, &scenario, 7).unwrap();
        assert_eq!(pos[0], 0, "nothing happens at 0 ms before the first step");
        // Replaying to each position shows the moment's event as the last one.
        for (i, want) in [(1, "checkpoint_completed"), (2, "record_emitted")] {
            let mut w = World::new(&scenario, 7).unwrap();
            w.set_tracing(true);
            let mut last = Vec::new();
            while w.steps() < pos[i] {
                last = w.step().unwrap().to_vec();
            }
            assert!(
                last.iter()
                    .any(|e| serde_json::to_value(e).unwrap()["type"] == want),
                "step {i}: {last:?}"
            );
            if i == 2 {
                let v = serde_json::to_value(&last[0]).unwrap();
                assert_eq!(v["value"], 7, "the 7th record emitted is 7");
            }
        }
    }

    #[test]
    fn targets_resolve_to_selectors_only_for_real_names() {
        let scenario = runner::load("odd-even-sum").unwrap();
        let job = World::new(&scenario, 7).unwrap().job_view();
        let t = |task: Option<&str>, channel: Option<&str>, panel: Option<&str>| Target {
            task: task.map(Into::into),
            channel: channel.map(Into::into),
            panel: panel.map(Into::into),
            row: None,
        };
        assert_eq!(
            selector(&t(Some("sum#0"), None, None), &job).unwrap(),
            "[data-task=\"sum#0\"]"
        );
        assert_eq!(
            selector(&t(None, Some("numbers#0->parity#0"), None), &job).unwrap(),
            "[data-channel=\"0\"]"
        );
        assert_eq!(
            selector(&t(None, None, Some("storage")), &job).unwrap(),
            "#tab-storage"
        );
        assert!(selector(&t(Some("sum#9"), None, None), &job)
            .unwrap_err()
            .to_string()
            .contains("sum#9"));
        assert!(selector(&t(None, Some("sum#0->numbers#0"), None), &job).is_err());
        assert!(selector(&t(None, Some("nonsense"), None), &job).is_err());
        assert!(selector(&t(None, None, Some("\"]*{}")), &job).is_err());
    }
}
