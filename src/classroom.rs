//! A live class (the classroom server, `crates/classroom`; docs/classroom.md): the
//! messages the page exchanges with it, pure and tested natively. The lecturer's
//! moment travels as the page's own share link ([`share::encode`]), so a phone
//! applies it with [`share::restore`] and computes the frames itself.
//!
//! The presenter's secret arrives in the URL fragment (`#presenter=<hex>`), which
//! a browser never sends in a request; [`presenter_secret`] reads it so the page
//! can keep it out of the address bar.

pub mod live;
pub mod view;

use serde::{Deserialize, Serialize};

use crate::playback::{State, SPEEDS};
use crate::share::{self, Recipe, Timed};

/// What starts the presenter link's fragment.
pub const SECRET_PREFIX: &str = "#presenter=";

/// The lecturer's moment, as `POST /api/moment` takes it and every phone receives it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Moment {
    /// The share link fragment (`#lab=1.…`): scenario as run, seed, interventions, cursor.
    pub link: String,
    /// The lesson's name.
    pub lesson: String,
    /// The checkpointing mode's key (`aligned`, `unaligned`, `at-least-once`).
    #[serde(default)]
    pub mode: Option<String>,
    /// The tour's step, when a tour runs.
    #[serde(default)]
    pub tour_step: Option<u32>,
    /// Playing or paused.
    pub playing: bool,
    /// The speed multiplier.
    pub speed: f64,
}

/// One event of the class's stream (`event: class`).
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct Class {
    /// Bumped on every change.
    pub version: u64,
    /// The lecturer's moment, once sent.
    pub moment: Option<Moment>,
    /// The question being voted on.
    pub vote: Option<Vote>,
    /// The server has heard nothing from the presenter's windows for a while
    /// (a laptop asleep): the phones keep the last moment and say so.
    #[serde(default)]
    pub lecturer_away: bool,
}

/// A question and its rounds, as the phones see them.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct Vote {
    /// The question's id.
    pub question: String,
    /// Its rounds, oldest first.
    pub rounds: Vec<Round>,
    /// The drill exercise asked, when the question is one: every phone
    /// generates it from its kind and variant.
    #[serde(default)]
    pub drill: Option<DrillRef>,
}

/// A drill exercise asked of the whole class: one shared variant.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DrillRef {
    /// The exercise's kind (`engine::drill::Kind::key`).
    pub kind: String,
    /// The variant seed.
    pub variant: u64,
}

/// A revealed drill round: the spread of the answers, and once marked right
/// and wrong as judged by the server's engine.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct DrillTally {
    /// Devices whose every blank is right (once marked).
    pub right: Option<u32>,
    /// The others (once marked).
    pub wrong: Option<u32>,
    /// The distinct answers, most frequent first (at most 8, then an "other" row).
    pub spread: Vec<Spread>,
}

/// One row of a drill round's spread.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct Spread {
    /// The answer: each blank's answer shown, joined by " · " (empty on the "other" row).
    pub answer: String,
    /// How many devices gave it.
    pub count: u32,
    /// It is the engine's answer (once marked).
    pub right: Option<bool>,
    /// The row sums the answers beyond the first eight.
    #[serde(default)]
    pub other: bool,
}

/// The id of a drill exercise's question as a vote: `drill.<kind>.<variant>`.
pub fn drill_question_id(kind: &str, variant: u64) -> String {
    format!("drill.{kind}.{variant}")
}

/// One round of a vote.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct Round {
    /// Its number.
    pub round: u32,
    /// How many choices.
    pub choices: u8,
    /// Votes are taken.
    pub open: bool,
    /// How many devices answered.
    pub answered: u32,
    /// Votes per choice, once revealed.
    pub tally: Option<Vec<u32>>,
    /// The right choice, once revealed.
    pub right: Option<u8>,
    /// A drill round once revealed: right, wrong and the spread.
    #[serde(default)]
    pub judged: Option<DrillTally>,
}

/// A student's vote (`POST /api/vote`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Ballot {
    /// This browser's random token.
    pub device: String,
    /// The question.
    pub question: String,
    /// The round.
    pub round: u32,
    /// The choice, from 0 (a tour question).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub choice: Option<u8>,
    /// A drill exercise's answers, one text per blank.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub answers: Option<Vec<String>>,
}

/// The secret in a presenter link's fragment: at least 32 hex digits (128 bits).
pub fn presenter_secret(fragment: &str) -> Option<String> {
    let secret = fragment.strip_prefix(SECRET_PREFIX)?;
    (secret.len() >= 32 && secret.bytes().all(|b| b.is_ascii_hexdigit()))
        .then(|| secret.to_string())
}

/// The moment `state` shows, with the interventions of its branch and the tour's step.
pub fn moment_of(state: &State, interventions: &[Timed], tour_step: Option<u32>) -> Option<Moment> {
    let recipe = share::recipe_of(state, interventions)?;
    Some(Moment {
        link: share::encode(&recipe),
        lesson: state.scenario.clone(),
        mode: Some(state.mode.key().to_string()),
        tour_step,
        playing: state.is_playing,
        speed: SPEEDS[state.speed.min(SPEEDS.len() - 1)],
    })
}

/// Why a class event or its moment cannot be followed.
#[derive(Debug, PartialEq)]
pub enum ClassError {
    /// The event's data is not a class state (the parser's message).
    BadEvent(String),
    /// The moment's `link` is not a share link.
    NotAShareLink,
    /// The moment's `link` is a damaged share link.
    BadLink(share::ShareError),
}

impl std::fmt::Display for ClassError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ClassError::BadEvent(e) => write!(f, "the class's event is not valid: {e}"),
            ClassError::NotAShareLink => f.write_str("link: not a share link"),
            ClassError::BadLink(e) => write!(f, "link: {e}"),
        }
    }
}

impl std::error::Error for ClassError {}

/// Reads one event's data. The error says what is wrong.
pub fn parse_event(data: &str) -> Result<Class, ClassError> {
    serde_json::from_str(data).map_err(|e| ClassError::BadEvent(e.to_string()))
}

/// The recipe a moment carries, for [`share::restore`].
pub fn recipe(moment: &Moment) -> Result<Recipe, ClassError> {
    share::decode(&moment.link)
        .map_err(ClassError::BadLink)?
        .ok_or(ClassError::NotAShareLink)
}

/// The speed index closest to a moment's multiplier (the page's speeds are a list).
pub fn speed_index(speed: f64) -> usize {
    (0..SPEEDS.len())
        .min_by(|&a, &b| {
            (SPEEDS[a] - speed)
                .abs()
                .total_cmp(&(SPEEDS[b] - speed).abs())
        })
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::playback::{Action, Mode};
    use engine::Intervention;

    #[test]
    fn the_presenter_secret_is_read_from_the_fragment_only_when_whole() {
        let hex = "a748c0ea9de44ab013473746086b5390a5b2f7e005872c88526c389fc1958df1";
        assert_eq!(
            presenter_secret(&format!("#presenter={hex}")).as_deref(),
            Some(hex)
        );
        assert_eq!(
            presenter_secret(&format!("#presenter={}", &hex[..31])),
            None
        );
        assert_eq!(
            presenter_secret("#presenter=zz000000000000000000000000000000000"),
            None
        );
        assert_eq!(presenter_secret(&format!("#lab=1.{hex}")), None);
    }

    /// The lecturer's branch — a mode, a crash, the cursor — reaches a phone as the
    /// same world: moment → JSON (as the server relays it) → recipe → restore.
    #[test]
    fn a_phone_restores_the_lecturers_moment() {
        let log = share::Log::default();
        let mut s = State::new(Some("odd-even-sum"), None);
        for a in [
            Action::SetMode(Mode::Unaligned),
            Action::SeekTime(400),
            Action::Intervene(Intervention::Crash {
                task: "sum#0".into(),
            }),
            Action::SeekTime(1_500),
            Action::SetSpeed(4),
        ] {
            log.note(&a, s.step());
            s = s.apply(a);
        }
        assert!(s.error.is_none(), "{:?}", s.error);
        let m = moment_of(&s, &log.get(), Some(3)).unwrap();
        assert_eq!(
            (m.lesson.as_str(), m.mode.as_deref(), m.speed),
            ("odd-even-sum", Some("unaligned"), 4.0)
        );
        let event = format!(
            r#"{{"version":5,"moment":{},"vote":{{"question":"q1","rounds":[{{"round":1,"choices":3,"open":true,"answered":2,"tally":null,"right":null}}]}}}}"#,
            serde_json::to_string(&m).unwrap()
        );
        let class = parse_event(&event).unwrap();
        assert_eq!(class.vote.unwrap().rounds[0].answered, 2);
        let back = share::restore(&recipe(&class.moment.unwrap()).unwrap()).unwrap();
        let view = |s: &State| serde_json::to_string(&**s.view.as_ref().unwrap()).unwrap();
        assert_eq!((back.mode, back.step()), (Mode::Unaligned, s.step()));
        assert_eq!(view(&back), view(&s));
        assert_eq!(speed_index(m.speed), 4);
    }

    /// A drill vote's question id, its exercise and a revealed round's spread
    /// as the server sends them.
    #[test]
    fn a_drill_vote_reads_with_its_exercise_and_its_judged_spread() {
        assert_eq!(
            drill_question_id("stored_offset", 7),
            "drill.stored_offset.7"
        );
        let event = r#"{"version":3,"moment":null,"vote":{"question":"drill.stored_offset.7",
            "drill":{"kind":"stored_offset","variant":7},"rounds":[{"round":1,"choices":0,
            "open":false,"answered":3,"tally":null,"right":null,"judged":{"right":2,"wrong":1,
            "spread":[{"answer":"12 · 3","count":2,"right":true,"other":false},
                      {"answer":"13 · 3","count":1,"right":false,"other":false}]}}]}}"#;
        let vote = parse_event(event).unwrap().vote.unwrap();
        assert_eq!(
            vote.drill,
            Some(DrillRef {
                kind: "stored_offset".into(),
                variant: 7
            })
        );
        let judged = vote.rounds[0].judged.as_ref().unwrap();
        assert_eq!(
            (judged.right, judged.wrong, judged.spread.len()),
            (Some(2), Some(1), 2)
        );
        let ballot = Ballot {
            device: "d".repeat(16),
            question: "drill.stored_offset.7".into(),
            round: 1,
            choice: None,
            answers: Some(vec!["12".into(), "3".into()]),
        };
        assert_eq!(
            serde_json::to_value(&ballot).unwrap(),
            serde_json::json!({"device": "d".repeat(16), "question": "drill.stored_offset.7",
                               "round": 1, "answers": ["12", "3"]})
        );
    }

    #[test]
    fn a_damaged_event_or_link_says_what_is_wrong() {
        assert!(parse_event("{")
            .unwrap_err()
            .to_string()
            .starts_with("the class's event"));
        let m = Moment {
            link: "#nope".into(),
            lesson: "pv-count".into(),
            mode: None,
            tour_step: None,
            playing: false,
            speed: 1.0,
        };
        assert_eq!(
            recipe(&m).unwrap_err().to_string(),
            "link: not a share link"
        );
        assert_eq!(speed_index(2.5), 3, "2× is nearer than 4×");
    }
}
