//! `classroom-load`: N simulated phones on the classroom server's live channel,
//! over loopback. The presenter steps M times; for every phone and step, the
//! delay from just before the presenter's request to the phone's receipt of the
//! new moment; and the server's memory (VmRSS, VmHWM from /proc).
//!
//! Usage: classroom-load --server PATH [--phones 100,300,1000] [--steps 20]
//!        [--interval-ms 250] [--max-p95-ms MS]
//! Each phone count gets a fresh server process (PATH is the `classroom` binary)
//! serving a one-file page. With --max-p95-ms the run fails when a phone misses a
//! step or the p95 delay exceeds MS (the test command's short run).

use std::io::{BufRead as _, BufReader};
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use classroom::probe::{request, EventStream};
use tokio::sync::{mpsc, Semaphore};

struct Args {
    server: String,
    phones: Vec<usize>,
    steps: u32,
    interval: Duration,
    max_p95_ms: Option<f64>,
}

fn parse() -> Result<Args, String> {
    let mut a = Args {
        server: String::new(),
        phones: vec![100, 300, 1000],
        steps: 20,
        interval: Duration::from_millis(250),
        max_p95_ms: None,
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let v = it.next().ok_or_else(|| format!("{flag}: needs a value"))?;
        let num = |what: &str| {
            v.parse::<u64>()
                .map_err(|_| format!("{what}: not a number: {v:?}"))
        };
        match flag.as_str() {
            "--server" => a.server = v.clone(),
            "--phones" => {
                a.phones = v
                    .split(',')
                    .map(|n| n.parse().ok().filter(|&n: &usize| (1..=5000).contains(&n)))
                    .collect::<Option<_>>()
                    .ok_or_else(|| {
                        format!("--phones: counts from 1 to 5000, comma-separated, not {v:?}")
                    })?
            }
            "--steps" => a.steps = num("--steps")?.clamp(1, 1000) as u32,
            "--interval-ms" => {
                a.interval = Duration::from_millis(num("--interval-ms")?.clamp(20, 10_000))
            }
            "--max-p95-ms" => a.max_p95_ms = Some(num("--max-p95-ms")? as f64),
            other => return Err(format!("{other}: unknown option")),
        }
    }
    if a.server.is_empty() {
        return Err("--server: the path of the classroom binary is needed".into());
    }
    Ok(a)
}

/// The server process and what it printed.
struct Server {
    child: Child,
    addr: SocketAddr,
    secret: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn spawn_server(path: &str, phones: usize) -> Result<Server, String> {
    let dir = std::env::temp_dir().join(format!("classroom-load-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    std::fs::write(dir.join("index.html"), "<!doctype html><title>load</title>")
        .map_err(|e| e.to_string())?;
    let mut child = Command::new(path)
        .args([
            "--dist",
            &dir.display().to_string(),
            "--host",
            "127.0.0.1",
            "--port",
            "0",
        ])
        .args(["--streams-per-ip", &(phones + 8).to_string()])
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|e| format!("--server {path}: {e}"))?;
    let out = child.stdout.take().expect("piped");
    let mut lines = BufReader::new(out).lines();
    let presenter = loop {
        match lines.next() {
            Some(Ok(l)) => {
                if let Some(url) = l.strip_prefix("presenter: ") {
                    break url.to_string();
                }
            }
            _ => return Err("the server ended before printing its presenter link".into()),
        }
    };
    // Keep reading (and dropping) what it prints so it never blocks on a full pipe.
    std::thread::spawn(move || for _ in lines {});
    let rest = presenter
        .strip_prefix("http://")
        .ok_or("presenter link: not http")?;
    let (host, secret) = rest
        .split_once("/#presenter=")
        .ok_or("presenter link: no secret")?;
    Ok(Server {
        child,
        addr: host
            .parse()
            .map_err(|_| format!("presenter link: bad address {host}"))?,
        secret: secret.to_string(),
    })
}

fn memory_kib(pid: u32) -> (u64, u64) {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.split_whitespace().next()?.parse().ok())
            .unwrap_or(0)
    };
    (field("VmRSS:"), field("VmHWM:"))
}

fn moment(step: u32) -> String {
    format!(
        r##"{{"link":"#lab=1.eJyrVkrOz0vJTM9TslIqSS0uUaoFAD7pBn8","lesson":"odd-even-sum","mode":"aligned","tour_step":{step},"playing":true,"speed":1.0}}"##
    )
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let i = ((p / 100.0) * (sorted.len() - 1) as f64).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

async fn run(a: &Args, phones: usize) -> Result<bool, String> {
    let server = spawn_server(&a.server, phones)?;
    let addr = server.addr;
    let (tx, mut rx) = mpsc::unbounded_channel::<(usize, u32, Instant)>();
    let (ready_tx, mut ready_rx) = mpsc::unbounded_channel::<Result<(), String>>();
    // Connect at most 64 at a time (a class scanning the QR code arrives over seconds, not in one instant).
    let gate = Arc::new(Semaphore::new(64));
    let connect_start = Instant::now();
    for phone in 0..phones {
        let (tx, ready_tx, gate) = (tx.clone(), ready_tx.clone(), gate.clone());
        tokio::spawn(async move {
            let permit = gate.acquire_owned().await.expect("never closed");
            let mut s = match EventStream::open(addr).await {
                Ok(s) if s.status == 200 => s,
                Ok(s) => return ready_tx.send(Err(format!("phone {phone}: status {}", s.status))),
                Err(e) => return ready_tx.send(Err(format!("phone {phone}: {e}"))),
            };
            match s.next().await {
                Ok(Some(_)) => {}
                other => {
                    return ready_tx.send(Err(format!("phone {phone}: no first event: {other:?}")))
                }
            }
            drop(permit);
            let _ = ready_tx.send(Ok(()));
            while let Ok(Some(ev)) = s.next().await {
                let at = Instant::now();
                let step = serde_json::from_str::<serde_json::Value>(&ev.data)
                    .ok()
                    .and_then(|v| v["moment"]["tour_step"].as_u64());
                if let Some(step) = step {
                    let _ = tx.send((phone, step as u32, at));
                }
            }
            Ok(())
        });
    }
    drop(tx);
    for _ in 0..phones {
        match tokio::time::timeout(Duration::from_secs(60), ready_rx.recv()).await {
            Ok(Some(Ok(()))) => {}
            Ok(Some(Err(e))) => return Err(e),
            _ => return Err("phones did not connect within 60 s".into()),
        }
    }
    let connected = connect_start.elapsed();
    let (rss_idle, _) = memory_kib(server.child.id());

    let auth = format!("Bearer {}", server.secret);
    let mut sent = Vec::with_capacity(a.steps as usize);
    for step in 1..=a.steps {
        let at = Instant::now();
        let body = moment(step);
        let r = request(
            addr,
            "POST",
            "/api/moment",
            &[
                ("Authorization", &auth),
                ("Content-Type", "application/json"),
            ],
            body.as_bytes(),
        )
        .await
        .map_err(|e| format!("presenter step {step}: {e}"))?;
        if r.status != 204 {
            return Err(format!(
                "presenter step {step}: status {} {}",
                r.status,
                r.text()
            ));
        }
        sent.push(at);
        tokio::time::sleep(a.interval).await;
    }
    // Collect until every phone has every step, or 10 s after the last step.
    let expected = phones * a.steps as usize;
    let mut delays = Vec::with_capacity(expected);
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while delays.len() < expected {
        match tokio::time::timeout_at(deadline, rx.recv()).await {
            Ok(Some((_, step, at))) if step >= 1 && step <= a.steps => {
                delays.push(at.duration_since(sent[step as usize - 1]).as_secs_f64() * 1000.0);
            }
            Ok(Some(_)) => {}
            _ => break,
        }
    }
    let (rss, hwm) = memory_kib(server.child.id());
    delays.sort_by(f64::total_cmp);
    let (p50, p95, p99) = (
        percentile(&delays, 50.0),
        percentile(&delays, 95.0),
        percentile(&delays, 99.0),
    );
    let max = delays.last().copied().unwrap_or(f64::NAN);
    println!(
        "| {phones} | {} | {}/{expected} | {p50:.1} | {p95:.1} | {p99:.1} | {max:.1} | {:.1} | {:.1} | {:.1} | {:.1} |",
        a.steps,
        delays.len(),
        rss_idle as f64 / 1024.0,
        rss as f64 / 1024.0,
        hwm as f64 / 1024.0,
        connected.as_secs_f64(),
    );
    let ok = match a.max_p95_ms {
        Some(limit) => {
            let fine = delays.len() == expected && p95 <= limit;
            if !fine {
                eprintln!(
                    "classroom-load: {phones} phones: {} of {expected} moments received, p95 {p95:.1} ms (at most {limit} ms allowed)",
                    delays.len()
                );
            }
            fine
        }
        None => true,
    };
    Ok(ok)
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let a = match parse() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("classroom-load: {e}");
            std::process::exit(2);
        }
    };
    println!("| phones | steps | received | p50 ms | p95 ms | p99 ms | max ms | RSS idle MiB | RSS MiB | peak RSS MiB | connect s |");
    println!("|---|---|---|---|---|---|---|---|---|---|---|");
    let mut ok = true;
    for &n in &a.phones {
        match run(&a, n).await {
            Ok(fine) => ok &= fine,
            Err(e) => {
                eprintln!("classroom-load: {n} phones: {e}");
                ok = false;
            }
        }
    }
    std::process::exit(if ok { 0 } else { 1 });
}
