//! `lab`: the headless runner (contract: scenario-format.md, "The headless runner").
//!
//! Exit codes: 0 for a run that was simulated (whatever became of the job); 2 for
//! bad input, with a message naming the problem on stderr and nothing on stdout.

use engine::runner::{self, ModeOverride, RunOptions};
use std::io::Write;
use std::process::ExitCode;

const USAGE: &str = "\
usage: lab run <scenario.json | builtin-name> [--seed N] [--until MS] [--mode aligned|unaligned|at-least-once]
               [--crash TASK@MS]... [--trace] [--metadata [--key-groups]] [--verdicts]
       lab list
       lab validate <scenario.json>
       lab export flink <scenario.json | builtin-name> [-o DIR] [--lang en|zh|zh-Hant] [--observe]
                        [--time-scale X] [--class NAME]
       lab barriers --mode aligned|unaligned|at-least-once --channels N [--aligned-timeout MS]
                    [--no-finished-tasks] \"<arrivals>\"";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match dispatch(&args) {
        Ok(lines) => {
            let stdout = std::io::stdout();
            let mut out = std::io::BufWriter::new(stdout.lock());
            for l in lines {
                // A closed pipe (`lab run … | head`) is not an error worth a panic.
                if writeln!(out, "{l}").is_err() {
                    return ExitCode::SUCCESS;
                }
            }
            let _ = out.flush();
            ExitCode::SUCCESS
        }
        Err(msg) => {
            eprintln!("{msg}");
            ExitCode::from(2)
        }
    }
}

fn dispatch(args: &[String]) -> Result<Vec<String>, String> {
    match args.first().map(String::as_str) {
        Some("run") => run(&args[1..]),
        Some("list") => {
            if args.len() > 1 {
                return Err(format!(
                    "lab list takes no arguments (got {:?})\n{USAGE}",
                    args[1]
                ));
            }
            Ok(runner::BUILTINS
                .iter()
                .map(|(n, _)| n.to_string())
                .collect())
        }
        Some("validate") => {
            let [path] = &args[1..] else {
                return Err(format!("lab validate takes one scenario file\n{USAGE}"));
            };
            let text = read_scenario_text(path)?;
            runner::load(&text).map_err(|e| format!("{path}: invalid scenario\n{e}"))?;
            Ok(vec!["ok".into()])
        }
        Some("barriers") => engine::bench::run_cli(&args[1..]).map_err(|e| e.to_string()),
        Some("export") => export(&args[1..]),
        Some("-h" | "--help" | "help") => Err(USAGE.into()),
        Some(other) => Err(format!("unknown command {other:?}\n{USAGE}")),
        None => Err(USAGE.into()),
    }
}

/// A built-in name, or the text of a file.
fn read_scenario_text(arg: &str) -> Result<String, String> {
    if let Some(json) = runner::builtin(arg) {
        return Ok(json.to_string());
    }
    std::fs::read_to_string(arg).map_err(|e| {
        format!("cannot read scenario {arg:?}: {e} (not a file, and not a built-in name: see `lab list`)")
    })
}

fn number(flag: &str, value: Option<&String>) -> Result<u64, String> {
    let v = value.ok_or_else(|| format!("{flag} needs a value"))?;
    v.parse::<u64>()
        .map_err(|_| format!("{flag}: {v:?} is not a non-negative whole number"))
}

fn run(args: &[String]) -> Result<Vec<String>, String> {
    let mut opts = RunOptions::default();
    let mut verdicts = false;
    let mut source = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--seed" => opts.seed = Some(number("--seed", it.next())?),
            "--until" => opts.until_ms = Some(number("--until", it.next())?),
            "--mode" => {
                let v = it
                    .next()
                    .ok_or("--mode needs a value (aligned, unaligned or at-least-once)")?;
                opts.mode = Some(ModeOverride::parse(v).map_err(|e| e.to_string())?);
            }
            "--crash" => {
                let v = it.next().ok_or("--crash needs TASK@MS, e.g. sum#0@2500")?;
                let (task, at) = v
                    .rsplit_once('@')
                    .ok_or_else(|| format!("--crash: {v:?} is not TASK@MS (e.g. sum#0@2500)"))?;
                let at = at
                    .parse::<u64>()
                    .map_err(|_| format!("--crash: {at:?} in {v:?} is not a time in ms"))?;
                opts.crashes.push((task.to_string(), at));
            }
            "--trace" => opts.trace = true,
            "--metadata" => opts.metadata = true,
            "--key-groups" => opts.key_groups = true,
            "--verdicts" => verdicts = true,
            flag if flag.starts_with("--") => {
                return Err(format!("lab run: unknown option {flag:?}\n{USAGE}"))
            }
            path => {
                if source.replace(path.to_string()).is_some() {
                    return Err(format!(
                        "lab run takes one scenario (got a second: {path:?})"
                    ));
                }
            }
        }
    }
    if opts.key_groups && !opts.metadata {
        return Err(format!(
            "--key-groups adds key-group ranges to --metadata's _metadata: give --metadata too\n{USAGE}"
        ));
    }
    let source =
        source.ok_or_else(|| format!("lab run needs a scenario file or built-in name\n{USAGE}"))?;
    let text = read_scenario_text(&source)?;
    let mut scenario = engine::Scenario::from_json(&text)
        .map_err(|e| format!("{source}: invalid scenario\n{e}"))?;
    runner::apply_options(&mut scenario, &opts).map_err(|e| e.to_string())?;
    let invalid = |e: engine::scenario::ScenarioError| format!("{source}: invalid scenario\n{e}");
    let (mut lines, world) = runner::run_lines_and_world(&scenario, &opts).map_err(invalid)?;
    if verdicts {
        let seed = opts.seed.unwrap_or(scenario.seed);
        let counts = engine::verdict::counts(&scenario, seed, &world).map_err(invalid)?;
        let counts = serde_json::to_string(&counts).map_err(|e| e.to_string())?;
        // Appended as the summary's last field, keeping the contract's field order.
        if let Some(summary) = lines.last_mut() {
            if summary.ends_with('}') {
                summary.pop();
                summary.push_str(&format!(",\"verdicts\":{counts}}}"));
            }
        }
    }
    Ok(lines)
}

/// `lab export flink`: writes `<Class>.java` into DIR (default: the current
/// directory), prints its path; the approximations go to stderr.
fn export(args: &[String]) -> Result<Vec<String>, String> {
    use engine::export::flink::{self, Lang, Options};
    match args.first().map(String::as_str) {
        Some("flink") => {}
        Some(other) => {
            return Err(format!(
                "lab export: unknown target {other:?} (only flink)\n{USAGE}"
            ))
        }
        None => return Err(format!("lab export needs a target (flink)\n{USAGE}")),
    }
    let mut opts = Options::default();
    let mut dir = std::path::PathBuf::from(".");
    let mut source = None;
    let mut it = args[1..].iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "-o" | "--out" => dir = it.next().ok_or("-o needs a directory")?.into(),
            "--lang" => {
                let given = it.next().ok_or("--lang needs en, zh or zh-Hant")?;
                opts.lang = Lang::parse(given).map_err(|e| e.to_string())?;
            }
            "--observe" => opts.observe = true,
            "--time-scale" => {
                let v = it.next().ok_or("--time-scale needs a number")?;
                opts.time_scale = v
                    .parse()
                    .map_err(|_| format!("--time-scale: {v:?} is not a number"))?;
            }
            "--class" => opts.class_name = Some(it.next().ok_or("--class needs a name")?.clone()),
            flag if flag.starts_with('-') => {
                return Err(format!(
                    "lab export flink: unknown option {flag:?}\n{USAGE}"
                ))
            }
            path => {
                if source.replace(path.to_string()).is_some() {
                    return Err(format!(
                        "lab export flink takes one scenario (got a second: {path:?})"
                    ));
                }
            }
        }
    }
    let source = source.ok_or_else(|| {
        format!("lab export flink needs a scenario file or built-in name\n{USAGE}")
    })?;
    let text = read_scenario_text(&source)?;
    let scenario = engine::Scenario::from_json(&text)
        .map_err(|e| format!("{source}: invalid scenario\n{e}"))?;
    let export = flink::export(&scenario, &opts)
        .map_err(|e| format!("{source}: cannot export to Flink\n{e}"))?;
    std::fs::create_dir_all(&dir)
        .map_err(|e| format!("-o {}: cannot create the directory: {e}", dir.display()))?;
    let path = dir.join(&export.file_name);
    std::fs::write(&path, &export.java)
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    eprintln!("approximated (also at the top of {}):", export.file_name);
    for a in &export.approximations {
        eprintln!("  - {a}");
    }
    Ok(vec![path.display().to_string()])
}
