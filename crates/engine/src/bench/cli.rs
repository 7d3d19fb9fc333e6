//! `lab barriers`: its flags, and the run that prints one JSON line per token.

use super::parse::{number, parse_arrivals};
use super::{run, BenchConfig, BenchError};
use crate::barrier::HandlerMode;

/// Parses the arguments after `lab barriers`: the configuration and the arrival text
/// (positional arguments joined by spaces).
pub fn parse_args(args: &[String]) -> Result<(BenchConfig, String), BenchError> {
    parse_flags(args).map_err(BenchError::Usage)
}

/// [`parse_args`], its message naming the flag.
fn parse_flags(args: &[String]) -> Result<(BenchConfig, String), String> {
    let mut mode = None;
    let mut channels = None;
    let mut aligned_timeout = None;
    let mut finished_tasks = true;
    let mut arrivals: Option<String> = None;
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((flag, value)) if arg.starts_with("--") => (flag, Some(value.to_string())),
            _ => (arg.as_str(), None),
        };
        let mut value = |flag: &str| -> Result<String, String> {
            match &inline {
                Some(v) => Ok(v.clone()),
                None => args
                    .next()
                    .cloned()
                    .ok_or_else(|| format!("{flag} needs a value")),
            }
        };
        match flag {
            "--mode" => {
                if mode.is_some() {
                    return Err("--mode given twice".to_string());
                }
                let v = value(flag)?;
                mode = Some(match v.as_str() {
                    "aligned" => HandlerMode::Aligned,
                    "unaligned" => HandlerMode::Unaligned,
                    "at-least-once" => HandlerMode::AtLeastOnce,
                    _ => {
                        return Err(format!(
                            "--mode {v:?}: expected aligned, unaligned or at-least-once"
                        ))
                    }
                });
            }
            "--channels" => {
                if channels.is_some() {
                    return Err("--channels given twice".to_string());
                }
                let v = value(flag)?;
                let n: u32 = number(&v, "--channels")
                    .map_err(|_| format!("--channels {v:?}: expected a number ≥ 1"))?;
                if n == 0 {
                    return Err("--channels 0: expected a number ≥ 1".to_string());
                }
                channels = Some(n);
            }
            "--aligned-timeout" => {
                if aligned_timeout.is_some() {
                    return Err("--aligned-timeout given twice".to_string());
                }
                let v = value(flag)?;
                aligned_timeout = Some(
                    number::<u64>(&v, "--aligned-timeout")
                        .map_err(|_| format!("--aligned-timeout {v:?}: expected milliseconds"))?,
                );
            }
            "--no-finished-tasks" if inline.is_none() => finished_tasks = false,
            _ if flag.starts_with("--") => return Err(format!("unknown flag {arg:?}")),
            _ => match &mut arrivals {
                Some(text) => {
                    text.push(' ');
                    text.push_str(arg);
                }
                None => arrivals = Some(arg.clone()),
            },
        }
    }
    let mode = mode.ok_or("missing --mode aligned|unaligned|at-least-once")?;
    let channels = channels.ok_or("missing --channels N")?;
    if aligned_timeout.is_some() && mode != HandlerMode::Unaligned {
        return Err("--aligned-timeout applies only with --mode unaligned".to_string());
    }
    let arrivals = arrivals.ok_or("missing \"<arrivals>\" (tokens such as \"r1@0 B1@0 B1@1\")")?;
    let config = BenchConfig {
        mode,
        channels,
        aligned_timeout_ms: aligned_timeout.unwrap_or(0),
        checkpoints_after_tasks_finish: finished_tasks,
    };
    Ok((config, arrivals))
}

/// `lab barriers`: `args` are the arguments after `barriers`; returns the JSON lines to
/// print (one per token, then the summary) or an error message naming the problem (the
/// caller prints it to stderr and exits 2).
pub fn run_cli(args: &[String]) -> Result<Vec<String>, BenchError> {
    let (config, text) = parse_args(args)?;
    let arrivals = parse_arrivals(&text)?;
    Ok(run(&config, &arrivals)?.to_json_lines()?)
}
