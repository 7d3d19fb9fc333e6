//! The class: the lecturer's current moment, the open vote and its tallies, and
//! the messages that change them. Pure: no I/O but [`Class::load`] / [`Class::save`].
//!
//! Every message is checked field by field; an error names the field and says what
//! is wrong, and changes nothing.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

/// The lecturer's moment, as the page encodes it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Moment {
    /// The page's share link fragment (`#lab=1.…`, `share::encode` of a `Recipe`):
    /// the scenario as run (its mode applied), the seed, the branch's
    /// interventions and the cursor. The page applies it with `share::restore`.
    pub link: String,
    /// The lesson's name (what the phones show while the link is applied).
    pub lesson: String,
    /// The checkpointing mode the lesson runs in (`aligned`, `unaligned`, `at-least-once`).
    #[serde(default)]
    pub mode: Option<String>,
    /// The tour's step index, when a tour is running.
    #[serde(default)]
    pub tour_step: Option<u32>,
    /// Whether the lecturer's stage is playing.
    pub playing: bool,
    /// Playback speed (the page's multiplier).
    pub speed: f64,
}

/// The presenter opens a question as a vote (or its next round).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OpenVote {
    /// The question's id (a tour step's or a drill exercise's).
    pub question: String,
    /// The round: 1, then 2 after the class discussed.
    pub round: u32,
    /// How many choices the phones show.
    pub choices: u8,
}

/// The presenter closes a round, or reveals it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RoundRef {
    /// The question.
    pub question: String,
    /// The round.
    pub round: u32,
    /// On a reveal: the right choice, marked on every screen.
    #[serde(default)]
    pub right: Option<u8>,
}

/// A student's vote.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ballot {
    /// A random token the page keeps for this browser (one counted vote each).
    pub device: String,
    /// The question.
    pub question: String,
    /// The round.
    pub round: u32,
    /// The choice, from 0.
    pub choice: u8,
}

/// One round of a question.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Round {
    /// The round's number.
    pub round: u32,
    /// How many choices.
    pub choices: u8,
    /// Votes are taken.
    pub open: bool,
    /// The spread is shown to everyone.
    pub revealed: bool,
    /// The right choice, once revealed with one.
    pub right: Option<u8>,
    /// Each device's latest choice.
    pub votes: BTreeMap<String, u8>,
}

impl Round {
    /// Votes per choice.
    pub fn tally(&self) -> Vec<u32> {
        let mut t = vec![0; usize::from(self.choices)];
        for &c in self.votes.values() {
            t[usize::from(c)] += 1;
        }
        t
    }
}

/// The question being voted on, with its rounds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Vote {
    /// The question's id.
    pub question: String,
    /// Its rounds, oldest first.
    pub rounds: Vec<Round>,
}

/// Everything that outlives a restart.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Class {
    /// The presenter's secret (hex).
    pub secret: String,
    /// Bumped on every change (the event stream's id).
    pub version: u64,
    /// The lecturer's moment, once one was sent.
    pub moment: Option<Moment>,
    /// The current question, once one was opened.
    pub vote: Option<Vote>,
}

/// What every phone sees: the moment and the vote without who voted what.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Public {
    /// The change counter.
    pub version: u64,
    /// The lecturer's moment.
    pub moment: Option<Moment>,
    /// The current question's rounds: counts always, the spread once revealed.
    pub vote: Option<PublicVote>,
    /// No request from the presenter's windows for a while (the server's
    /// judgement, not part of the saved class: a restart starts present).
    #[serde(default)]
    pub lecturer_away: bool,
}

/// A question as the phones and the projector see it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PublicVote {
    /// The question's id.
    pub question: String,
    /// Its rounds.
    pub rounds: Vec<PublicRound>,
}

/// A round as everyone sees it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PublicRound {
    /// The round's number.
    pub round: u32,
    /// How many choices.
    pub choices: u8,
    /// Votes are taken.
    pub open: bool,
    /// How many devices have answered.
    pub answered: u32,
    /// Votes per choice, once revealed (hidden before: the class commits first).
    pub tally: Option<Vec<u32>>,
    /// The right choice, once revealed.
    pub right: Option<u8>,
}

/// Limits of the messages.
pub mod limits {
    /// Longest share link accepted (a whole scenario deflated: a few KiB; an
    /// imported scenario may be larger).
    pub const LINK: usize = 48 * 1024;
    /// Longest lesson, mode, question id.
    pub const NAME: usize = 80;
    /// Device tokens: 16 to 64 characters.
    pub const DEVICE: (usize, usize) = (16, 64);
    /// Choices per question.
    pub const CHOICES: (u8, u8) = (2, 8);
    /// Rounds per question.
    pub const ROUNDS: u32 = 8;
    /// Devices counted per round (a class, with room to spare).
    pub const VOTERS: usize = 20_000;
    /// Fastest playback accepted.
    pub const SPEED: f64 = 1000.0;
}

fn name(field: &str, v: &str) -> Result<(), String> {
    if v.is_empty() || v.len() > limits::NAME {
        return Err(format!("{field}: must be 1 to {} characters", limits::NAME));
    }
    if !v
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b"-_.:".contains(&b))
    {
        return Err(format!(
            "{field}: only letters, digits, '-', '_', '.', ':' are allowed"
        ));
    }
    Ok(())
}

impl Moment {
    /// Checks every field.
    pub fn check(&self) -> Result<(), String> {
        let data = self
            .link
            .strip_prefix("#lab=")
            .ok_or("link: must be a share link fragment starting with #lab=")?;
        if self.link.len() > limits::LINK {
            return Err(format!("link: longer than {} bytes", limits::LINK));
        }
        if !data
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b))
        {
            return Err("link: only URL-safe base64 after #lab=<version>. is allowed".into());
        }
        name("lesson", &self.lesson)?;
        if let Some(m) = &self.mode {
            name("mode", m)?;
        }
        if !(self.speed.is_finite() && self.speed > 0.0 && self.speed <= limits::SPEED) {
            return Err(format!(
                "speed: must be above 0 and at most {}",
                limits::SPEED
            ));
        }
        Ok(())
    }
}

fn round_no(round: u32) -> Result<(), String> {
    if round == 0 || round > limits::ROUNDS {
        return Err(format!("round: must be 1 to {}", limits::ROUNDS));
    }
    Ok(())
}

impl Class {
    /// A new class with `secret`.
    pub fn new(secret: String) -> Class {
        Class {
            secret,
            version: 0,
            moment: None,
            vote: None,
        }
    }

    /// What the phones see.
    pub fn public(&self) -> Public {
        Public {
            version: self.version,
            moment: self.moment.clone(),
            vote: self.vote.as_ref().map(|v| PublicVote {
                question: v.question.clone(),
                rounds: v
                    .rounds
                    .iter()
                    .map(|r| PublicRound {
                        round: r.round,
                        choices: r.choices,
                        open: r.open,
                        answered: r.votes.len() as u32,
                        tally: r.revealed.then(|| r.tally()),
                        right: if r.revealed { r.right } else { None },
                    })
                    .collect(),
            }),
            lecturer_away: false,
        }
    }

    /// The presenter moves the class (the same moment again changes nothing).
    pub fn set_moment(&mut self, m: Moment) -> Result<(), String> {
        m.check()?;
        if self.moment.as_ref() != Some(&m) {
            self.moment = Some(m);
            self.version += 1;
        }
        Ok(())
    }

    /// The presenter opens a round: round 1 of a new question starts it afresh;
    /// round n + 1 of the current one closes round n and keeps it for the histogram.
    pub fn open(&mut self, o: OpenVote) -> Result<(), String> {
        name("question", &o.question)?;
        round_no(o.round)?;
        let (lo, hi) = limits::CHOICES;
        if o.choices < lo || o.choices > hi {
            return Err(format!("choices: must be {lo} to {hi}"));
        }
        let fresh = Round {
            round: o.round,
            choices: o.choices,
            open: true,
            revealed: false,
            right: None,
            votes: BTreeMap::new(),
        };
        match &mut self.vote {
            Some(v) if v.question == o.question => {
                let last = v.rounds.last().map_or(0, |r| r.round);
                if o.round != last + 1 {
                    return Err(format!(
                        "round: the next round of {} is {}",
                        o.question,
                        last + 1
                    ));
                }
                for r in &mut v.rounds {
                    r.open = false;
                }
                v.rounds.push(fresh);
            }
            _ => {
                if o.round != 1 {
                    return Err("round: a new question starts at round 1".into());
                }
                self.vote = Some(Vote {
                    question: o.question,
                    rounds: vec![fresh],
                });
            }
        }
        self.version += 1;
        Ok(())
    }

    fn round_mut(&mut self, question: &str, round: u32) -> Result<&mut Round, String> {
        let v = self
            .vote
            .as_mut()
            .filter(|v| v.question == question)
            .ok_or_else(|| format!("question: {question} is not the class's current question"))?;
        v.rounds
            .iter_mut()
            .find(|r| r.round == round)
            .ok_or_else(|| format!("round: {question} has no round {round}"))
    }

    /// The presenter stops taking votes for a round.
    pub fn close(&mut self, r: RoundRef) -> Result<(), String> {
        self.round_mut(&r.question, r.round)?.open = false;
        self.version += 1;
        Ok(())
    }

    /// The presenter shows the round's spread (and closes it), marking `right`.
    pub fn reveal(&mut self, r: RoundRef) -> Result<(), String> {
        let round = self.round_mut(&r.question, r.round)?;
        if let Some(c) = r.right {
            if c >= round.choices {
                return Err(format!("right: must be below {}", round.choices));
            }
        }
        round.open = false;
        round.revealed = true;
        round.right = r.right;
        self.version += 1;
        Ok(())
    }

    /// A student votes. A device has one counted vote per round: voting again in
    /// an open round replaces its earlier choice.
    pub fn cast(&mut self, b: Ballot) -> Result<(), String> {
        let (lo, hi) = limits::DEVICE;
        if b.device.len() < lo || b.device.len() > hi {
            return Err(format!("device: must be {lo} to {hi} characters"));
        }
        if !b
            .device
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || c == b'-' || c == b'_')
        {
            return Err("device: only letters, digits, '-' and '_' are allowed".into());
        }
        name("question", &b.question)?;
        let round = self.round_mut(&b.question, b.round)?;
        if !round.open {
            return Err(format!(
                "round: round {} of {} is closed",
                b.round, b.question
            ));
        }
        if b.choice >= round.choices {
            return Err(format!("choice: must be below {}", round.choices));
        }
        if round.votes.len() >= limits::VOTERS && !round.votes.contains_key(&b.device) {
            return Err(format!(
                "device: this round already counts {} devices",
                limits::VOTERS
            ));
        }
        round.votes.insert(b.device, b.choice);
        self.version += 1;
        Ok(())
    }

    /// Reads a saved class. Errors name the file and the field.
    pub fn load(path: &Path) -> Result<Option<Class>, String> {
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(format!("--state {}: {e}", path.display())),
        };
        let class: Class =
            serde_json::from_str(&text).map_err(|e| format!("--state {}: {e}", path.display()))?;
        if class.secret.len() < 32 || !class.secret.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(format!(
                "--state {}: secret: must be at least 32 hex digits (128 bits)",
                path.display()
            ));
        }
        if let Some(m) = &class.moment {
            m.check()
                .map_err(|e| format!("--state {}: moment.{e}", path.display()))?;
        }
        if let Some(v) = &class.vote {
            for r in &v.rounds {
                if r.votes.values().any(|&c| c >= r.choices) {
                    return Err(format!(
                        "--state {}: vote.rounds: a vote beyond its round's choices",
                        path.display()
                    ));
                }
            }
        }
        Ok(Some(class))
    }

    /// Writes the class to `path` atomically: a temporary file beside it, synced,
    /// then renamed over it, so a kill leaves the old file or the new one.
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        let json = serde_json::to_vec(self).map_err(std::io::Error::other)?;
        let tmp = path.with_extension("tmp");
        {
            use std::io::Write as _;
            let mut f = std::fs::File::create(&tmp)?;
            f.write_all(&json)?;
            f.sync_all()?;
        }
        std::fs::rename(&tmp, path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn open(q: &str, round: u32) -> OpenVote {
        OpenVote {
            question: q.into(),
            round,
            choices: 3,
        }
    }

    fn ballot(device: &str, round: u32, choice: u8) -> Ballot {
        Ballot {
            device: format!("device-{device:0>10}"),
            question: "q1".into(),
            round,
            choice,
        }
    }

    #[test]
    fn one_vote_per_device_per_round_and_a_revote_replaces() {
        let mut c = Class::new("0".repeat(64));
        c.open(open("q1", 1)).unwrap();
        c.cast(ballot("a", 1, 0)).unwrap();
        c.cast(ballot("a", 1, 2)).unwrap();
        c.cast(ballot("b", 1, 2)).unwrap();
        let r = &c.vote.as_ref().unwrap().rounds[0];
        assert_eq!(r.tally(), vec![0, 0, 2]);
        c.open(open("q1", 2)).unwrap();
        assert!(c.cast(ballot("a", 1, 1)).unwrap_err().contains("closed"));
        c.cast(ballot("a", 2, 1)).unwrap();
        let p = c.public();
        let rounds = &p.vote.unwrap().rounds;
        assert_eq!((rounds[0].answered, rounds[1].answered), (2, 1));
        assert_eq!(
            rounds[0].tally, None,
            "the spread stays hidden until revealed"
        );
    }

    #[test]
    fn bad_messages_name_their_field_and_change_nothing() {
        let mut c = Class::new("0".repeat(64));
        assert!(c.open(open("q1", 2)).unwrap_err().starts_with("round:"));
        assert!(c
            .open(OpenVote {
                choices: 1,
                ..open("q1", 1)
            })
            .unwrap_err()
            .starts_with("choices:"));
        assert!(c.open(open("q 1", 1)).unwrap_err().starts_with("question:"));
        c.open(open("q1", 1)).unwrap();
        let before = c.clone();
        assert!(c
            .cast(ballot("a", 1, 3))
            .unwrap_err()
            .starts_with("choice:"));
        assert!(c
            .cast(Ballot {
                device: "short".into(),
                ..ballot("a", 1, 0)
            })
            .unwrap_err()
            .starts_with("device:"));
        assert!(c.cast(ballot("a", 4, 0)).unwrap_err().starts_with("round:"));
        assert!(c
            .reveal(RoundRef {
                question: "q1".into(),
                round: 1,
                right: Some(3)
            })
            .unwrap_err()
            .starts_with("right:"));
        assert_eq!(c, before);
    }
}
