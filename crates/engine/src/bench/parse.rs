//! The arrival sequence's text form: tokens in, [`Arrival`]s out, and the check of a
//! sequence against a configuration.

use super::{Arrival, ArrivalKind, BenchConfig, BenchError};
use crate::barrier::HandlerMode;
use crate::ids::{ChannelIndex, CheckpointId};

const TOKEN_SYNTAX: &str =
    "expected r<n>@<ch>, B<id>@<ch>[^<created ms>], S<id>@<ch>, X<id>@<ch>, EOP@<ch>, hold@<ch>, poll@<ch> (each optionally followed by :<ms>) or tick:<ms>";

/// Parses an arrival sequence: whitespace-separated tokens, in arrival order. Errors
/// name the token. Channel ranges are checked by [`run`].
pub fn parse_arrivals(s: &str) -> Result<Vec<Arrival>, BenchError> {
    let mut arrivals = Vec::new();
    let mut previous_at = 0;
    for (index, token) in s.split_whitespace().enumerate() {
        let bad = |why: String| BenchError::Token {
            token: token.to_string(),
            index,
            why,
        };
        let (kind, at) = parse_token(token).map_err(bad)?;
        let at_ms = match at {
            Some(at) if at < previous_at => {
                return Err(bad(format!(
                    "time {at} is earlier than the previous token's time {previous_at}"
                )))
            }
            Some(at) => at,
            None => (index as u64).max(previous_at),
        };
        previous_at = at_ms;
        arrivals.push(Arrival {
            token: token.to_string(),
            at_ms,
            kind,
        });
    }
    Ok(arrivals)
}

/// A non-empty run of ASCII digits as a number.
pub(super) fn number<T: std::str::FromStr>(s: &str, what: &str) -> Result<T, String> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("{what} {s:?} is not a number; {TOKEN_SYNTAX}"));
    }
    s.parse().map_err(|_| format!("{what} {s} is too large"))
}

/// One token: what arrives and its explicit time, if any.
fn parse_token(token: &str) -> Result<(ArrivalKind, Option<u64>), String> {
    if let Some(at) = token.strip_prefix("tick:") {
        return Ok((ArrivalKind::Tick, Some(number(at, "time")?)));
    }
    let (body, at) = match token.split_once(':') {
        Some((body, at)) => (body, Some(number(at, "time")?)),
        None => (token, None),
    };
    let Some((head, channel)) = body.split_once('@') else {
        return Err(TOKEN_SYNTAX.to_string());
    };
    let (channel, created_at) = match channel.split_once('^') {
        Some((channel, created)) => (channel, Some(created)),
        None => (channel, None),
    };
    let channel = ChannelIndex(number(channel, "channel")?);
    let first = head.chars().next().unwrap_or(' ');
    if created_at.is_some() && first != 'B' && first != 'S' {
        return Err(format!("only barriers take ^<created ms>; {TOKEN_SYNTAX}"));
    }
    let kind = match (first, &head[first.len_utf8().min(head.len())..]) {
        ('r', digits) => {
            number::<u64>(digits, "record number")?;
            ArrivalKind::Record {
                name: head.to_string(),
                channel,
            }
        }
        ('B' | 'S', id) => ArrivalKind::Barrier {
            checkpoint: CheckpointId(number(id, "checkpoint id")?),
            channel,
            created_at: match created_at {
                Some(created) => number(created, "creation time")?,
                None => 0,
            },
            is_savepoint: first == 'S',
        },
        ('X', id) => ArrivalKind::Cancellation {
            checkpoint: CheckpointId(number(id, "checkpoint id")?),
            channel,
        },
        ('E', "OP") => ArrivalKind::EndOfPartition { channel },
        ('h', "old") => ArrivalKind::Hold { channel },
        ('p', "oll") => ArrivalKind::Poll { channel },
        _ => return Err(TOKEN_SYNTAX.to_string()),
    };
    Ok((kind, at))
}

/// Checks a sequence against a configuration: at least one channel, channels in
/// range, times not going backwards, nothing after a channel's end of partition.
pub(super) fn validate(config: &BenchConfig, arrivals: &[Arrival]) -> Result<(), BenchError> {
    if config.channels == 0 {
        return Err(BenchError::Config("--channels must be at least 1"));
    }
    if config.aligned_timeout_ms > 0 && config.mode != HandlerMode::Unaligned {
        return Err(BenchError::Config(
            "--aligned-timeout applies only with --mode unaligned",
        ));
    }
    let mut ended = vec![false; config.channels as usize];
    let mut previous_at = 0;
    for (index, arrival) in arrivals.iter().enumerate() {
        let bad = |why: String| BenchError::Token {
            token: arrival.token.clone(),
            index,
            why,
        };
        if arrival.at_ms < previous_at {
            return Err(bad(format!(
                "time {} is earlier than the previous token's time {previous_at}",
                arrival.at_ms
            )));
        }
        previous_at = arrival.at_ms;
        let Some(channel) = arrival.named_channel() else {
            continue;
        };
        let Some(is_ended) = ended.get_mut(channel.0 as usize) else {
            return Err(bad(format!(
                "channel {channel} is out of range (--channels {})",
                config.channels
            )));
        };
        if arrival.channel().is_none() {
            // hold / poll: an ended channel may still hold queued elements.
            continue;
        }
        if *is_ended {
            return Err(bad(format!(
                "channel {channel} already ended (EOP); nothing arrives after it"
            )));
        }
        *is_ended = matches!(arrival.kind, ArrivalKind::EndOfPartition { .. });
    }
    Ok(())
}
