//! The arrival sequence's text form: tokens in, [`Arrival`]s out, and the check of a
//! sequence against a configuration.

use super::{Arrival, ArrivalKind, BenchConfig, BenchError};
use crate::barrier::HandlerMode;
use crate::ids::{ChannelIndex, CheckpointId};

const TOKEN_SYNTAX: &str =
    "expected r<n>@<ch>, B<id>@<ch>[^<created ms>], S<id>@<ch>, X<id>@<ch>, A<id>@<ch>[^<created ms>], EOP@<ch>, hold@<ch>, poll@<ch> (each optionally followed by :<ms>), tick:<ms> or a queue [r1 r2 B1]@<ch>";

const GROUP_SYNTAX: &str =
    "a queue is written [<elements>]@<ch> or [<elements>]@<ch>:<ms>, e.g. [r1 r2 B1]@0, its elements without @<ch> or :<ms>";

/// A `[` … `]@N` group being read: its elements wait for the channel its end names.
struct OpenGroup {
    /// The token that opened it, and its index.
    opened_by: (String, usize),
    /// Its elements so far: the text as written, the token index.
    elements: Vec<(String, usize)>,
}

/// Parses an arrival sequence: whitespace-separated tokens, in arrival order. A queue
/// `[r1 r2 B1]@0` stands for its elements, each a token of its own, queued on channel
/// 0. Errors name the token and its position. Channel ranges are checked by [`run`].
///
/// [`run`]: super::run
pub fn parse_arrivals(s: &str) -> Result<Vec<Arrival>, BenchError> {
    let mut arrivals = Vec::new();
    let mut previous_at = 0;
    let mut group: Option<OpenGroup> = None;
    for (index, piece) in s.split_whitespace().enumerate() {
        let bad = |why: String| BenchError::Token {
            token: piece.to_string(),
            index,
            why,
        };
        let (opens, rest) = match piece.strip_prefix('[') {
            Some(rest) => (true, rest),
            None => (false, piece),
        };
        if opens {
            if let Some(open) = &group {
                return Err(bad(format!(
                    "a queue cannot open inside another (opened by token {} {:?}); {GROUP_SYNTAX}",
                    open.opened_by.1, open.opened_by.0
                )));
            }
            group = Some(OpenGroup {
                opened_by: (piece.to_string(), index),
                elements: Vec::new(),
            });
        }
        let (element, close) = match rest.split_once(']') {
            Some((element, close)) => (element, Some(close)),
            None => (rest, None),
        };
        if let Some(open) = &mut group {
            if element.is_empty() {
                return Err(bad(format!(
                    "brackets go right around the elements, with no space inside; {GROUP_SYNTAX}"
                )));
            }
            if element.contains(['@', ':', '[']) {
                return Err(bad(format!(
                    "inside a queue an element names no channel or time; {GROUP_SYNTAX}"
                )));
            }
            open.elements.push((element.to_string(), index));
            let Some(close) = close else {
                continue;
            };
            let open = group
                .take()
                .unwrap_or_else(|| unreachable!("the group is open"));
            let (channel, at) = parse_group_end(close).map_err(bad)?;
            push_group(open, channel, at, &mut previous_at, &mut arrivals)?;
            continue;
        }
        if close.is_some() {
            return Err(bad(format!("] closes no queue; {GROUP_SYNTAX}")));
        }
        let (kind, at) = parse_token(piece).map_err(bad)?;
        let at_ms = arrival_time(at, index, previous_at).map_err(bad)?;
        previous_at = at_ms;
        arrivals.push(Arrival {
            token: piece.to_string(),
            at_ms,
            kind,
            queued: false,
        });
    }
    if let Some(open) = group {
        let (token, index) = open.opened_by;
        return Err(BenchError::Token {
            token,
            index,
            why: format!("this queue is never closed with ]@<ch>; {GROUP_SYNTAX}"),
        });
    }
    Ok(arrivals)
}

/// A token's arrival time: its explicit `:T`, else its index, never before the
/// previous token's time.
fn arrival_time(at: Option<u64>, index: usize, previous_at: u64) -> Result<u64, String> {
    match at {
        Some(at) if at < previous_at => Err(format!(
            "time {at} is earlier than the previous token's time {previous_at}"
        )),
        Some(at) => Ok(at),
        None => Ok((index as u64).max(previous_at)),
    }
}

/// What follows a queue's `]`: `@N` or `@N:T`.
fn parse_group_end(close: &str) -> Result<(ChannelIndex, Option<u64>), String> {
    let Some(end) = close.strip_prefix('@') else {
        return Err(GROUP_SYNTAX.to_string());
    };
    let (channel, at) = match end.split_once(':') {
        Some((channel, at)) => (channel, Some(number(at, "time")?)),
        None => (end, None),
    };
    Ok((ChannelIndex(number(channel, "channel")?), at))
}

/// The elements of a closed queue on `channel`, each parsed as if written with
/// `@channel`, all at the queue's time `at` when given.
fn push_group(
    open: OpenGroup,
    channel: ChannelIndex,
    at: Option<u64>,
    previous_at: &mut u64,
    arrivals: &mut Vec<Arrival>,
) -> Result<(), BenchError> {
    for (element, index) in open.elements {
        let bad = |why: String| BenchError::Token {
            token: element.clone(),
            index,
            why,
        };
        // `B1^40` is `B1@0^40` with the channel put in.
        let spelled = match element.split_once('^') {
            Some((head, created)) => format!("{head}@{channel}^{created}"),
            None => format!("{element}@{channel}"),
        };
        let (kind, _) = parse_token(&spelled).map_err(|why| {
            bad(format!(
                "{why}; inside a queue write r<n>, B<id>[^<created ms>], S<id>, X<id>, A<id> or EOP"
            ))
        })?;
        if matches!(kind, ArrivalKind::Hold { .. } | ArrivalKind::Poll { .. }) {
            return Err(bad(format!(
                "hold and poll stand outside a queue; {GROUP_SYNTAX}"
            )));
        }
        let at_ms = arrival_time(at, index, *previous_at).map_err(bad)?;
        *previous_at = at_ms;
        arrivals.push(Arrival {
            token: element,
            at_ms,
            kind,
            queued: true,
        });
    }
    Ok(())
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
    if created_at.is_some() && !matches!(first, 'B' | 'S' | 'A') {
        return Err(format!(
            "only barriers and announcements take ^<created ms>; {TOKEN_SYNTAX}"
        ));
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
        ('A', id) => ArrivalKind::Announcement {
            checkpoint: CheckpointId(number(id, "checkpoint id")?),
            channel,
            created_at: match created_at {
                Some(created) => number(created, "creation time")?,
                None => 0,
            },
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
        if matches!(arrival.kind, ArrivalKind::Announcement { .. })
            && (config.mode != HandlerMode::Unaligned || config.aligned_timeout_ms == 0)
        {
            return Err(bad(
                "an announcement is of a barrier that may time out: it needs --mode unaligned with --aligned-timeout above 0"
                    .to_string(),
            ));
        }
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
