//! The command line: `classroom --dist DIR [--host ADDR | --lan] [--port N]
//! [--state FILE] [--streams-per-ip N] [--devices-per-ip N] [--away-after-ms N]`.

use std::net::{IpAddr, Ipv4Addr, SocketAddr, UdpSocket};
use std::path::PathBuf;
use std::time::Duration;

use tokio::net::TcpListener;

use crate::server::{self, Config, Running};

/// The options as given.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// `--dist`: the release page (default `dist`).
    pub dist: PathBuf,
    /// `--host`: the students' address; `--lan`: this machine's LAN address.
    pub host: Host,
    /// `--port`: 0 picks a free one (default 8080).
    pub port: u16,
    /// `--state`: where the class is kept.
    pub state: Option<PathBuf>,
    /// `--streams-per-ip`: open event streams per client address (default 16).
    pub streams_per_ip: usize,
    /// `--devices-per-ip`: devices counted per client address and round (default 4).
    pub devices_per_ip: usize,
    /// `--away-after-ms`: the phones say the lecturer is away after this long
    /// without a word from the presenter's windows (default 16000).
    pub away_after_ms: u64,
}

/// Where the students reach the server.
#[derive(Clone, Debug, PartialEq)]
pub enum Host {
    /// An address given with `--host`.
    Addr(IpAddr),
    /// `--lan`: the address of the interface the default route leaves by.
    Lan,
}

/// The usage line.
pub const USAGE: &str = "usage: classroom [--dist DIR] [--host ADDR | --lan] [--port N] [--state FILE] [--streams-per-ip N] [--devices-per-ip N] [--away-after-ms N]";

/// Parses the arguments (without the program's name). Errors name the option.
pub fn parse(args: &[String]) -> Result<Options, String> {
    let mut o = Options {
        dist: PathBuf::from("dist"),
        host: Host::Addr(IpAddr::V4(Ipv4Addr::LOCALHOST)),
        port: 8080,
        state: None,
        streams_per_ip: 16,
        devices_per_ip: 4,
        away_after_ms: 16_000,
    };
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let mut value = || {
            it.next()
                .ok_or_else(|| format!("{flag}: needs a value ({USAGE})"))
        };
        match flag.as_str() {
            "--dist" => o.dist = PathBuf::from(value()?),
            "--host" => {
                let v = value()?;
                o.host = Host::Addr(
                    v.parse()
                        .map_err(|_| format!("--host: {v:?} is not an IP address"))?,
                );
            }
            "--lan" => o.host = Host::Lan,
            "--port" => {
                let v = value()?;
                o.port = v
                    .parse()
                    .map_err(|_| format!("--port: must be a number from 0 to 65535, not {v:?}"))?;
            }
            "--state" => o.state = Some(PathBuf::from(value()?)),
            "--streams-per-ip" => {
                let v = value()?;
                o.streams_per_ip = v.parse().ok().filter(|&n| n > 0).ok_or_else(|| {
                    format!("--streams-per-ip: must be a positive number, not {v:?}")
                })?;
            }
            "--devices-per-ip" => {
                let v = value()?;
                o.devices_per_ip = v.parse().ok().filter(|&n| n > 0).ok_or_else(|| {
                    format!("--devices-per-ip: must be a positive number, not {v:?}")
                })?;
            }
            "--away-after-ms" => {
                let v = value()?;
                o.away_after_ms = v.parse().ok().filter(|&n| n > 0).ok_or_else(|| {
                    format!("--away-after-ms: must be a positive number of milliseconds, not {v:?}")
                })?;
            }
            "-h" | "--help" => return Err(USAGE.into()),
            other => return Err(format!("{other}: unknown option ({USAGE})")),
        }
    }
    Ok(o)
}

/// The address of the interface the default route leaves by (no packet is sent:
/// connecting a UDP socket only picks the route). `None` without a route.
pub fn lan_address() -> Option<IpAddr> {
    let s = UdpSocket::bind((Ipv4Addr::UNSPECIFIED, 0)).ok()?;
    s.connect((Ipv4Addr::new(192, 0, 2, 1), 9)).ok()?;
    let ip = s.local_addr().ok()?.ip();
    (!ip.is_loopback() && !ip.is_unspecified()).then_some(ip)
}

/// A started server and the two links it prints.
pub struct Started {
    /// The server.
    pub running: Running,
    /// The lecturer's link: loopback, the secret in the fragment.
    pub presenter: String,
    /// The students' link: no secret.
    pub students: String,
}

/// Binds, loads and starts. The students' address is `host`; the presenter's
/// link is always on 127.0.0.1 (also bound when `host` is a LAN address), so the
/// secret never crosses the network.
pub async fn start(o: &Options) -> Result<Started, String> {
    let host = match o.host {
        Host::Addr(ip) => ip,
        Host::Lan => lan_address().unwrap_or_else(|| {
            eprintln!("classroom: this machine has no LAN address (no default route); serving on 127.0.0.1");
            IpAddr::V4(Ipv4Addr::LOCALHOST)
        }),
    };
    let main = TcpListener::bind(SocketAddr::new(host, o.port))
        .await
        .map_err(|e| format!("--host {host} --port {}: cannot listen: {e}", o.port))?;
    let port = main.local_addr().map_err(|e| e.to_string())?.port();
    let mut listeners = vec![main];
    if !host.is_loopback() && !host.is_unspecified() {
        let lo = TcpListener::bind((Ipv4Addr::LOCALHOST, port))
            .await
            .map_err(|e| format!("127.0.0.1:{port} (the presenter's link): cannot listen: {e}"))?;
        listeners.push(lo);
    }
    let config = Config {
        dist: o.dist.clone(),
        state: o.state.clone(),
        streams_per_ip: o.streams_per_ip,
        devices_per_ip: o.devices_per_ip,
        away_after: Duration::from_millis(o.away_after_ms),
    };
    let running = server::start(&config, listeners).await?;
    let students_host = if host.is_unspecified() {
        lan_address().unwrap_or(host)
    } else {
        host
    };
    let url_host = |ip: IpAddr| match ip {
        IpAddr::V6(v6) => format!("[{v6}]"),
        v4 => v4.to_string(),
    };
    Ok(Started {
        presenter: format!(
            "http://127.0.0.1:{port}/#presenter={}",
            running.shared.secret()
        ),
        students: format!("http://{}:{port}/", url_host(students_host)),
        running,
    })
}

/// The binary: parse, start, print the links and the QR code, serve until Ctrl-C.
pub async fn main(args: Vec<String>) -> i32 {
    let o = match parse(&args) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("classroom: {e}");
            return 2;
        }
    };
    let started = match start(&o).await {
        Ok(s) => s,
        Err(e) => {
            eprintln!("classroom: {e}");
            return 2;
        }
    };
    let site = started.running.shared.site();
    let (raw, br, gz) = site.totals;
    let kib = |n: u64| format!("{} KiB", (n + 512) / 1024);
    println!("checkpoint-lab for the classroom: {} files", site.len());
    println!(
        "  {} of page, sent as {} brotli / {} gzip",
        kib(raw),
        kib(br),
        kib(gz)
    );
    println!("  (browsers ask for brotli only on https or 127.0.0.1: phones on a plain-http LAN address get gzip)");
    println!("presenter: {}", started.presenter);
    println!("students: {}", started.students);
    match crate::qr::terminal(&started.students) {
        Some(qr) => print!("{qr}"),
        None => println!("  (the students' link is too long for a QR code)"),
    }
    println!("Open the presenter link on this laptop only. Ctrl-C stops the server.");
    use std::io::Write as _;
    let _ = std::io::stdout().flush();
    let _ = tokio::signal::ctrl_c().await;
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn options_and_their_errors() {
        let o = parse(&args("--dist d --host 127.0.0.1 --port 0 --state s.json")).unwrap();
        assert_eq!(
            (o.port, o.state.as_deref()),
            (0, Some(std::path::Path::new("s.json")))
        );
        assert!(parse(&args("--port 70000"))
            .unwrap_err()
            .starts_with("--port:"));
        assert!(parse(&args("--host lan"))
            .unwrap_err()
            .starts_with("--host:"));
        assert!(parse(&args("--dist")).unwrap_err().starts_with("--dist:"));
        assert!(parse(&args("--streams-per-ip 0"))
            .unwrap_err()
            .starts_with("--streams-per-ip:"));
        assert_eq!(
            parse(&args("--away-after-ms 2500")).unwrap().away_after_ms,
            2500
        );
        assert!(parse(&args("--away-after-ms soon"))
            .unwrap_err()
            .starts_with("--away-after-ms:"));
        assert!(parse(&args("--bogus")).unwrap_err().starts_with("--bogus:"));
    }
}
