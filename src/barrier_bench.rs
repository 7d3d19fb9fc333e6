//! The page side of the barrier bench: one task's barrier handler fed an exact
//! arrival sequence (contract: scenario-format.md, "The barrier bench").
//!
//! The engine does the work ([`engine::bench::parse_arrivals`] and
//! [`engine::bench::run`], the same code as `lab barriers`); this module turns the
//! form's fields into a run and says what each step shows: per input channel, the
//! tokens waiting there, and whether it is blocked or persisting. Pure (no yew, no
//! `web_sys`), so it is unit-tested natively.

use std::fmt;

use engine::bench::{self, Arrival, BenchConfig, BenchError, BenchOutput};
use engine::view::ChannelIndex;
use engine::view::HandlerMode;

use crate::i18n::Msg;

/// Input channels the form offers (a picture with more would not fit the panel).
pub const MAX_CHANNELS: u32 = 8;

/// What the form holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchForm {
    /// The handler.
    pub mode: HandlerMode,
    /// Input channels, 1..=[`MAX_CHANNELS`].
    pub channels: u32,
    /// Aligned-checkpoint timeout in ms; used with [`HandlerMode::Unaligned`] only
    /// (0: unaligned from the start).
    pub aligned_timeout_ms: u64,
    /// The arrival sequence in the text form (`r1@0 B1@1 r2@1 r3@0 B1@0`, queues
    /// `[r1 r2 B1]@0`).
    pub arrivals: String,
}

/// A ready-made sequence that shows one behaviour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Example {
    /// Its button's wording.
    pub label: Msg,
    /// The handler.
    pub mode: HandlerMode,
    /// Input channels.
    pub channels: u32,
    /// Aligned timeout (unaligned only).
    pub aligned_timeout_ms: u64,
    /// The sequence.
    pub arrivals: &'static str,
}

/// The examples the panel offers; the first is loaded at the start.
pub const EXAMPLES: [Example; 4] = [
    Example {
        label: Msg::BenchExampleAligned,
        mode: HandlerMode::Aligned,
        channels: 2,
        aligned_timeout_ms: 0,
        arrivals: "r1@0 B1@1 r2@1 r3@0 B1@0 r4@1",
    },
    Example {
        label: Msg::BenchExampleUnaligned,
        mode: HandlerMode::Unaligned,
        channels: 2,
        aligned_timeout_ms: 0,
        arrivals: "r1@1 B1@0 r2@1 r3@0 r4@1 B1@1 r5@1",
    },
    Example {
        label: Msg::BenchExampleTimeout,
        mode: HandlerMode::Unaligned,
        channels: 2,
        aligned_timeout_ms: 10,
        arrivals: "B1@0^0:2 r1@0:4 r2@1:6 r3@1:14 B1@1:20",
    },
    Example {
        label: Msg::BenchExampleAtLeastOnce,
        mode: HandlerMode::AtLeastOnce,
        channels: 2,
        aligned_timeout_ms: 0,
        arrivals: "r1@0 B1@0 r2@0 r3@1 B1@1 r4@0",
    },
];

impl Example {
    /// The form filled with this example.
    pub fn form(&self) -> BenchForm {
        BenchForm {
            mode: self.mode,
            channels: self.channels,
            aligned_timeout_ms: self.aligned_timeout_ms,
            arrivals: self.arrivals.to_string(),
        }
    }
}

impl Default for BenchForm {
    fn default() -> Self {
        EXAMPLES[0].form()
    }
}

/// A successful run: the parsed arrivals and what the handler did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchRun {
    /// The tokens, in arrival order.
    pub arrivals: Vec<Arrival>,
    /// One line per token, then the summary.
    pub output: BenchOutput,
}

/// Why the form cannot run: its field, or the engine's bench error (which
/// names the token).
#[derive(Debug)]
pub enum FormError {
    /// `channels` outside 1 to [`MAX_CHANNELS`].
    Channels {
        /// What the form holds.
        channels: u32,
    },
    /// `arrivals` holds no token.
    EmptyArrivals,
    /// The engine refused the sequence or the configuration.
    Bench(BenchError),
}

impl fmt::Display for FormError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FormError::Channels { channels } => write!(
                f,
                "channels: {channels} is out of range (1 to {MAX_CHANNELS})"
            ),
            FormError::EmptyArrivals => f.write_str("arrivals: the sequence is empty"),
            FormError::Bench(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for FormError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            FormError::Bench(e) => Some(e),
            _ => None,
        }
    }
}

/// Runs the form. An error names the field (`channels`) or the token, as the
/// engine's messages do; it never panics.
pub fn run(form: &BenchForm) -> Result<BenchRun, FormError> {
    if form.channels == 0 || form.channels > MAX_CHANNELS {
        return Err(FormError::Channels {
            channels: form.channels,
        });
    }
    let arrivals = bench::parse_arrivals(&form.arrivals).map_err(FormError::Bench)?;
    if arrivals.is_empty() {
        return Err(FormError::EmptyArrivals);
    }
    let mut config = BenchConfig::new(form.mode, form.channels);
    if form.mode == HandlerMode::Unaligned {
        config.aligned_timeout_ms = form.aligned_timeout_ms;
    }
    let output = bench::run(&config, &arrivals).map_err(FormError::Bench)?;
    Ok(BenchRun { arrivals, output })
}

/// One input channel after a line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChannelPicture {
    /// The channel.
    pub channel: u32,
    /// Tokens that arrived and wait on it (it is blocked), oldest first.
    pub waiting: Vec<String>,
    /// Blocked by an aligned barrier.
    pub is_blocked: bool,
    /// Its in-flight records are being persisted (unaligned).
    pub is_persisting: bool,
}

impl BenchRun {
    /// Every input channel after line `line` (clamped to the last line).
    pub fn channels_after(&self, channels: u32, line: usize) -> Vec<ChannelPicture> {
        let Some(l) = self
            .output
            .lines
            .get(line.min(self.output.lines.len().saturating_sub(1)))
        else {
            return Vec::new();
        };
        (0..channels)
            .map(|c| {
                let ch = ChannelIndex(c);
                ChannelPicture {
                    channel: c,
                    waiting: l
                        .waiting
                        .iter()
                        .filter_map(|&i| self.arrivals.get(i))
                        .filter(|a| a.channel() == Some(ch))
                        .map(|a| a.token.clone())
                        .collect(),
                    is_blocked: l.blocked.contains(&ch),
                    is_persisting: l.persisting.contains(&ch),
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn form(mode: HandlerMode, channels: u32, arrivals: &str) -> BenchForm {
        BenchForm {
            mode,
            channels,
            aligned_timeout_ms: 0,
            arrivals: arrivals.into(),
        }
    }

    /// Every example runs, and shows what its label says.
    #[test]
    fn examples_show_their_behaviour() {
        for ex in EXAMPLES {
            let run = run(&ex.form()).unwrap_or_else(|e| panic!("{:?}: {e}", ex.label));
            assert_eq!(run.output.lines.len(), run.arrivals.len());
            let triggered = &run.output.summary.triggered;
            assert_eq!(triggered.len(), 1, "{:?}: one snapshot", ex.label);
            let any_blocked = run.output.lines.iter().any(|l| !l.blocked.is_empty());
            let unaligned = run
                .output
                .lines
                .iter()
                .flat_map(|l| &l.triggered)
                .any(|t| t.unaligned);
            match ex.label {
                Msg::BenchExampleAligned => assert!(any_blocked && !unaligned),
                Msg::BenchExampleUnaligned => assert!(!any_blocked && unaligned),
                Msg::BenchExampleTimeout => {
                    assert!(any_blocked && unaligned, "blocks, then times out")
                }
                Msg::BenchExampleAtLeastOnce => assert!(!any_blocked && !unaligned),
                other => panic!("unexpected example {other:?}"),
            }
        }
    }

    /// Aligned: after `B1@1` channel 1 is blocked and `r2@1` waits there; `B1@0`
    /// completes the alignment and releases it.
    #[test]
    fn aligned_blocks_the_early_channel_until_the_last_barrier() {
        let run = run(&form(HandlerMode::Aligned, 2, "r1@0 B1@1 r2@1 r3@0 B1@0")).unwrap();
        let after = |line| run.channels_after(2, line);
        assert!(after(1)[1].is_blocked && after(1)[1].waiting.is_empty());
        assert_eq!(after(2)[1].waiting, vec!["r2@1".to_string()]);
        assert!(!after(2)[0].is_blocked, "channel 0 keeps flowing");
        assert_eq!(run.output.lines[3].processed, vec!["r3".to_string()]);
        let last = after(4);
        assert!(last.iter().all(|c| !c.is_blocked && c.waiting.is_empty()));
        assert_eq!(run.output.lines[4].processed, vec!["r2".to_string()]);
        // Past the end: the last line.
        assert_eq!(run.channels_after(2, 99), last);
    }

    /// Unaligned: the first barrier triggers at once; the other channel persists
    /// its records until its own barrier arrives.
    #[test]
    fn unaligned_persists_the_other_channel_until_its_barrier() {
        let run = run(&form(HandlerMode::Unaligned, 2, "r1@1 B1@0 r2@1 B1@1")).unwrap();
        let t = &run.output.lines[1].triggered;
        assert!(t.len() == 1 && t[0].unaligned);
        assert!(run.channels_after(2, 2)[1].is_persisting);
        assert!(!run.channels_after(2, 3)[1].is_persisting);
        let state = &t[0].channel_state;
        assert_eq!(state.get(&ChannelIndex(1)), Some(&vec!["r2".to_string()]));
    }

    /// Queued remote data: each element of a queue waits on its channel, as its own
    /// token; the timer turns the announced barrier into a priority event.
    #[test]
    fn queues_wait_on_their_channel() {
        let mut f = form(HandlerMode::Unaligned, 2, "[r1 r2 B1]@0 tick:20 poll@0");
        f.aligned_timeout_ms = 10;
        let out = run(&f).unwrap();
        assert_eq!(out.output.lines.len(), 5);
        let waiting = |line| out.channels_after(2, line)[0].waiting.clone();
        assert_eq!(waiting(2), vec!["r1", "r2", "B1"]);
        assert_eq!(waiting(3), vec!["r1", "r2"], "the barrier overtook");
        assert!(out.output.lines[3].triggered[0].unaligned);
        assert!(waiting(4).is_empty());
        let e = run(&form(HandlerMode::Aligned, 2, "r0@1 [r1 r2"))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("\"[r1\" (token 1)") && e.contains("never closed"),
            "{e}"
        );
    }

    /// Bad input: a message naming the field or the token, never a panic.
    #[test]
    fn bad_input_names_the_field_or_token() {
        let e = run(&form(HandlerMode::Aligned, 0, "r1@0"))
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("channels:"), "{e}");
        let e = run(&form(HandlerMode::Aligned, 9, "r1@0"))
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("channels:"), "{e}");
        let e = run(&form(HandlerMode::Aligned, 2, "r1@0 Q7@1"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("Q7@1"), "{e}");
        let e = run(&form(HandlerMode::Aligned, 2, "r1@5"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("r1@5"), "{e}");
        let e = run(&form(HandlerMode::Aligned, 2, "   "))
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("arrivals:"), "{e}");
    }
}
