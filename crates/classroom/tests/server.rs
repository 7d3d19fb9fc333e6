//! The classroom server over loopback: the page's files and their encodings, paths
//! outside the build, the live channel, the presenter's secret, votes, every
//! hostile case a class's own audience can try, and a restart that keeps the class.

use std::io::Read as _;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::{Path, PathBuf};
use std::time::Duration;

use classroom::cli::{self, Host, Options, Started};
use classroom::probe::{request, EventStream, Reply};
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

const WASM: &str = "checkpoint-lab-0123456789abcdef_bg.wasm";
const OUTSIDE: &str = "the file outside the build";

/// A dist directory of its own for one test, beside a file that must never be served.
fn dist(name: &str) -> PathBuf {
    let root = std::env::temp_dir().join(format!("classroom-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let d = root.join("dist");
    std::fs::create_dir_all(d.join("data")).unwrap();
    std::fs::write(root.join("secret.txt"), OUTSIDE).unwrap();
    std::fs::write(
        d.join("index.html"),
        "<!doctype html><title>lab</title>".repeat(50),
    )
    .unwrap();
    std::fs::write(
        d.join("sw.js"),
        "self.addEventListener('fetch', () => {});\n".repeat(20),
    )
    .unwrap();
    std::fs::write(d.join(WASM), [0u8, 97, 115, 109].repeat(2000)).unwrap();
    std::fs::write(
        d.join("data/pv-count.0123abcd4567.json"),
        r#"{"name":"pv-count"}"#.repeat(40),
    )
    .unwrap();
    std::fs::write(d.join("favicon-0123456789abcde.png"), [137u8, 80, 78, 71]).unwrap();
    std::os::unix::fs::symlink(root.join("secret.txt"), d.join("leak.txt")).unwrap();
    std::os::unix::fs::symlink(&root, d.join("up")).unwrap();
    d
}

fn options(dist: &Path, state: Option<PathBuf>) -> Options {
    Options {
        dist: dist.to_path_buf(),
        host: Host::Addr(IpAddr::V4(Ipv4Addr::LOCALHOST)),
        port: 0,
        state,
        streams_per_ip: 4,
        devices_per_ip: 4,
        away_after_ms: 16_000,
    }
}

async fn start(name: &str) -> (Started, SocketAddr, String) {
    let s = cli::start(&options(&dist(name), None)).await.unwrap();
    let (addr, secret) = (s.running.addr, s.running.shared.secret());
    (s, addr, secret)
}

async fn get(addr: SocketAddr, path: &str, accept: &str) -> Reply {
    request(addr, "GET", path, &[("Accept-Encoding", accept)], b"")
        .await
        .unwrap()
}

async fn post(addr: SocketAddr, path: &str, secret: Option<&str>, body: &Value) -> Reply {
    post_raw(addr, path, secret, body.to_string().as_bytes()).await
}

async fn post_raw(addr: SocketAddr, path: &str, secret: Option<&str>, body: &[u8]) -> Reply {
    let auth = secret.map(|s| format!("Bearer {s}"));
    let mut headers = vec![("Content-Type", "application/json")];
    if let Some(a) = &auth {
        headers.push(("Authorization", a));
    }
    request(addr, "POST", path, &headers, body).await.unwrap()
}

fn moment(step: u32) -> Value {
    json!({"link": "#lab=1.eJyrVkrOz0vJTM9TslIqSS0uUaoFAD7pBn8", "lesson": "odd-even-sum",
           "mode": "aligned", "tour_step": step, "playing": true, "speed": 1.0})
}

async fn next_class(s: &mut EventStream) -> Value {
    let ev = tokio::time::timeout(Duration::from_secs(5), s.next())
        .await
        .expect("an event within 5 s");
    let ev = ev.unwrap().expect("the stream stays open");
    assert_eq!(ev.event, "class");
    serde_json::from_str(&ev.data).unwrap()
}

async fn public_now(addr: SocketAddr) -> Value {
    let mut s = EventStream::open(addr).await.unwrap();
    next_class(&mut s).await
}

#[tokio::test]
async fn serves_the_page_precompressed_with_its_cache_rules() {
    let (_s, addr, _) = start("static").await;
    let raw = std::fs::read(dist("static-raw").join(WASM)).unwrap();

    let br = get(addr, &format!("/{WASM}"), "gzip, deflate, br, zstd").await;
    assert_eq!(
        (br.status, br.header("content-encoding")),
        (200, Some("br"))
    );
    let mut out = Vec::new();
    brotli::Decompressor::new(&br.body[..], 4096)
        .read_to_end(&mut out)
        .unwrap();
    assert_eq!(out, raw);
    assert!(
        br.body.len() < raw.len() / 10,
        "{} bytes of brotli",
        br.body.len()
    );
    assert_eq!(
        br.header("cache-control"),
        Some("public, max-age=31536000, immutable")
    );
    assert_eq!(br.header("content-type"), Some("application/wasm"));
    assert_eq!(br.header("vary"), Some("accept-encoding"));

    // A phone on a plain-http LAN address advertises no brotli.
    let gz = get(addr, &format!("/{WASM}"), "gzip, deflate").await;
    assert_eq!(gz.header("content-encoding"), Some("gzip"));
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(&gz.body[..])
        .read_to_end(&mut out)
        .unwrap();
    assert_eq!(out, raw);

    let plain = get(addr, &format!("/{WASM}"), "").await;
    assert_eq!(
        (plain.header("content-encoding"), plain.body.len()),
        (None, raw.len())
    );
    let refused = get(addr, &format!("/{WASM}"), "br;q=0, gzip;q=0").await;
    assert_eq!(refused.header("content-encoding"), None);

    for (path, cache) in [
        ("/", "no-cache"),
        ("/index.html", "no-cache"),
        ("/sw.js", "no-cache"),
        (
            "/data/pv-count.0123abcd4567.json",
            "public, max-age=31536000, immutable",
        ),
        (
            "/favicon-0123456789abcde.png",
            "public, max-age=31536000, immutable",
        ),
    ] {
        let r = get(addr, path, "gzip").await;
        assert_eq!(
            (r.status, r.header("cache-control")),
            (200, Some(cache)),
            "{path}"
        );
    }
    // An image is not compressed.
    assert_eq!(
        get(addr, "/favicon-0123456789abcde.png", "gzip, br")
            .await
            .header("content-encoding"),
        None
    );
    let head = request(addr, "HEAD", "/", &[], b"").await.unwrap();
    assert_eq!(head.status, 200);
    let put = request(addr, "PUT", "/index.html", &[], b"x")
        .await
        .unwrap();
    assert_eq!(put.status, 405);
    assert_eq!(get(addr, "/nope.js", "").await.status, 404);
}

#[tokio::test]
async fn paths_outside_the_build_are_never_served() {
    let (_s, addr, _) = start("traversal").await;
    for path in [
        "/../secret.txt",
        "/%2e%2e/secret.txt",
        "/%2E%2E%2Fsecret.txt",
        "/data/..%2f..%2fsecret.txt",
        "/data/%2e%2e/%2e%2e/secret.txt",
        "//etc/passwd",
        "/%2Fetc%2Fpasswd",
        "/..%5c..%5csecret.txt",
        "/leak.txt",
        "/up/secret.txt",
        "/up/dist/index.html",
        "/%00",
        "/%zz",
        "/%c0%ae%c0%ae/secret.txt",
        "/index.html.br",
        "/./index.html",
    ] {
        let r = get(addr, path, "").await;
        assert_eq!(r.status, 404, "{path}");
        assert!(
            !r.text().contains(OUTSIDE),
            "{path} leaked the outside file"
        );
    }
    // A request line whose target is not a path at all.
    let r = get(addr, "http://example.com/../secret.txt", "").await;
    assert!(!r.text().contains(OUTSIDE));
}

#[tokio::test]
async fn a_late_joiner_lands_on_the_moment_and_a_follower_gets_every_change() {
    let (_s, addr, secret) = start("live").await;
    let mut early = EventStream::open(addr).await.unwrap();
    assert_eq!(early.status, 200);
    let first = tokio::time::timeout(Duration::from_secs(5), early.next()).await;
    let first = first.expect("the current view at once").unwrap().unwrap();
    assert_eq!(
        first.retry,
        Some(1000),
        "the browser reconnects after a second"
    );
    assert_eq!(
        serde_json::from_str::<Value>(&first.data).unwrap()["moment"],
        Value::Null
    );

    assert_eq!(
        post(addr, "/api/moment", Some(&secret), &moment(3))
            .await
            .status,
        204
    );
    assert_eq!(next_class(&mut early).await["moment"], moment(3));
    assert_eq!(
        post(addr, "/api/moment", Some(&secret), &moment(4))
            .await
            .status,
        204
    );
    assert_eq!(next_class(&mut early).await["moment"]["tour_step"], 4);

    let late = public_now(addr).await;
    assert_eq!(late["moment"], moment(4));
    assert_eq!(late["version"], 2);
}

#[tokio::test]
async fn only_the_presenters_secret_moves_the_class() {
    let (s, addr, secret) = start("secret").await;
    assert!(secret.len() >= 32, "at least 128 bits");
    assert!(s.presenter.starts_with("http://127.0.0.1:"));
    assert!(
        s.presenter.ends_with(&format!("/#presenter={secret}")),
        "in the fragment, not the query"
    );
    assert!(!s.students.contains(&secret));
    assert!(!get(addr, "/", "").await.text().contains(&secret));

    let mut wrong_last = secret.clone().into_bytes();
    *wrong_last.last_mut().unwrap() ^= 1;
    let wrong_last = String::from_utf8(wrong_last).unwrap();
    let cases: [(&str, Option<String>); 5] = [
        ("missing", None),
        ("wrong in its last digit", Some(wrong_last)),
        ("a prefix", Some(secret[..secret.len() - 1].to_string())),
        ("longer", Some(format!("{secret}0"))),
        ("empty", Some(String::new())),
    ];
    for (what, given) in cases {
        for path in ["/api/moment", "/api/vote/open"] {
            let body = if path == "/api/moment" {
                moment(1)
            } else {
                json!({"question": "q", "round": 1, "choices": 3})
            };
            let r = post(addr, path, given.as_deref(), &body).await;
            assert_eq!(r.status, 401, "{what} secret on {path}");
            assert!(r.text().contains("presenter"), "{}", r.text());
        }
    }
    let r = request(
        addr,
        "POST",
        "/api/moment",
        &[("Authorization", &format!("bearer {secret}"))],
        moment(1).to_string().as_bytes(),
    )
    .await
    .unwrap();
    assert_eq!(r.status, 401, "the scheme is case-sensitive here");
    assert_eq!(
        request(addr, "GET", "/api/class", &[], b"")
            .await
            .unwrap()
            .status,
        401
    );
    assert_eq!(public_now(addr).await["version"], 0, "nothing changed");
    assert_eq!(
        post(addr, "/api/moment", Some(&secret), &moment(1))
            .await
            .status,
        204
    );

    assert!(classroom::server::secrets_match(b"abc", b"abc"));
    assert!(!classroom::server::secrets_match(b"abd", b"abc"));
    assert!(!classroom::server::secrets_match(b"ab", b"abc"));
    let a = classroom::server::new_secret().unwrap();
    assert_eq!(a.len(), 64);
    assert_ne!(
        a,
        classroom::server::new_secret().unwrap(),
        "fresh randomness each time"
    );
}

fn ballot(device: &str, round: u32, choice: u8) -> Value {
    json!({"device": format!("device-token-{device:0>8}"), "question": "barrier-alignment.3", "round": round, "choice": choice})
}

#[tokio::test]
async fn votes_count_once_per_device_per_round_over_two_rounds_and_a_reveal() {
    let (_s, addr, secret) = start("votes").await;
    let q = "barrier-alignment.3";
    assert_eq!(
        post(addr, "/api/vote", None, &ballot("a", 1, 0))
            .await
            .status,
        422,
        "no vote open yet"
    );
    let open1 = json!({"question": q, "round": 1, "choices": 3});
    assert_eq!(
        post(addr, "/api/vote/open", Some(&secret), &open1)
            .await
            .status,
        204
    );
    for (d, c) in [("a", 0), ("a", 2), ("b", 2), ("c", 1)] {
        assert_eq!(
            post(addr, "/api/vote", None, &ballot(d, 1, c)).await.status,
            204
        );
    }
    let public = public_now(addr).await;
    let r1 = &public["vote"]["rounds"][0];
    assert_eq!(
        (r1["answered"].clone(), r1["tally"].clone()),
        (json!(3), Value::Null),
        "a re-vote replaces; spread hidden"
    );

    let open2 = json!({"question": q, "round": 2, "choices": 3});
    assert_eq!(
        post(addr, "/api/vote/open", Some(&secret), &open2)
            .await
            .status,
        204
    );
    let late = post(addr, "/api/vote", None, &ballot("d", 1, 0)).await;
    assert_eq!(late.status, 422);
    assert!(late.text().contains("closed"), "{}", late.text());
    for (d, c) in [("a", 2), ("b", 2), ("c", 2), ("d", 0)] {
        assert_eq!(
            post(addr, "/api/vote", None, &ballot(d, 2, c)).await.status,
            204
        );
    }
    for round in [1, 2] {
        let reveal = json!({"question": q, "round": round, "right": 2});
        assert_eq!(
            post(addr, "/api/vote/reveal", Some(&secret), &reveal)
                .await
                .status,
            204
        );
    }
    let public = public_now(addr).await;
    let rounds = &public["vote"]["rounds"];
    assert_eq!(rounds[0]["tally"], json!([0, 1, 2]));
    assert_eq!(rounds[1]["tally"], json!([1, 0, 3]));
    assert_eq!(
        (rounds[1]["right"].clone(), rounds[1]["open"].clone()),
        (json!(2), json!(false))
    );
    assert!(
        !public.to_string().contains("device-token"),
        "the phones never see who voted what"
    );
    assert_eq!(
        post(addr, "/api/vote", None, &ballot("a", 2, 1))
            .await
            .status,
        422,
        "a revealed round is closed"
    );

    let full = request(
        addr,
        "GET",
        "/api/class",
        &[("Authorization", &format!("Bearer {secret}"))],
        b"",
    )
    .await
    .unwrap();
    let full: Value = serde_json::from_slice(&full.body).unwrap();
    assert_eq!(
        full["vote"]["rounds"][1]["votes"]["device-token-0000000d"],
        0
    );

    // A new question starts afresh.
    let open_new = json!({"question": "pv-count.1", "round": 1, "choices": 4});
    assert_eq!(
        post(addr, "/api/vote/open", Some(&secret), &open_new)
            .await
            .status,
        204
    );
    assert_eq!(
        public_now(addr).await["vote"]["rounds"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
}

#[tokio::test]
async fn hostile_messages_are_refused_with_a_reason_and_change_nothing() {
    let (_s, addr, secret) = start("hostile").await;
    let open1 = json!({"question": "q1", "round": 1, "choices": 3});
    assert_eq!(
        post(addr, "/api/vote/open", Some(&secret), &open1)
            .await
            .status,
        204
    );
    let before = public_now(addr).await;

    // A student's page that steps, picks a lesson or crashes a subtask: its
    // moment without the secret moves nobody.
    let r = post(addr, "/api/moment", None, &moment(9)).await;
    assert_eq!(r.status, 401);
    // Nor can it open, close or reveal a vote.
    for path in ["/api/vote/open", "/api/vote/close", "/api/vote/reveal"] {
        assert_eq!(
            post(
                addr,
                path,
                None,
                &json!({"question": "q1", "round": 2, "choices": 2})
            )
            .await
            .status,
            401,
            "{path}"
        );
    }

    let mut bad_moment = moment(1);
    bad_moment["link"] = json!("https://evil.example/");
    let mut bad_speed = moment(1);
    bad_speed["speed"] = json!(0);
    let mut bad_lesson = moment(1);
    bad_lesson["lesson"] = json!("<script>");
    let mut unknown_field = moment(1);
    unknown_field["admin"] = json!(true);
    let cases: Vec<Hostile> = vec![
        (
            "not JSON",
            "/api/vote",
            None,
            b"{choice: 1".to_vec(),
            400,
            "body:",
        ),
        ("empty body", "/api/vote", None, b"".to_vec(), 400, "body:"),
        (
            "a field missing",
            "/api/vote",
            None,
            br#"{"device":"device-token-0000000a","question":"q1","round":1}"#.to_vec(),
            400,
            "choice",
        ),
        (
            "a string for a number",
            "/api/vote",
            None,
            br#"{"device":"device-token-0000000a","question":"q1","round":"1","choice":0}"#
                .to_vec(),
            400,
            "body:",
        ),
        (
            "a negative choice",
            "/api/vote",
            None,
            br#"{"device":"device-token-0000000a","question":"q1","round":1,"choice":-1}"#.to_vec(),
            400,
            "body:",
        ),
        (
            "a choice out of range",
            "/api/vote",
            None,
            ballot_q("a", 1, 3),
            422,
            "choice:",
        ),
        (
            "a short device token",
            "/api/vote",
            None,
            br#"{"device":"x","question":"q1","round":1,"choice":0}"#.to_vec(),
            422,
            "device:",
        ),
        (
            "another question",
            "/api/vote",
            None,
            br#"{"device":"device-token-0000000a","question":"q2","round":1,"choice":0}"#.to_vec(),
            422,
            "question:",
        ),
        (
            "a round not open",
            "/api/vote",
            None,
            ballot_q("a", 5, 0),
            422,
            "round:",
        ),
        (
            "an oversized vote",
            "/api/vote",
            None,
            vec![b' '; 4096],
            413,
            "length limit",
        ),
        (
            "a link that is not a share link",
            "/api/moment",
            Some(&secret),
            bad_moment.to_string().into_bytes(),
            422,
            "link:",
        ),
        (
            "speed zero",
            "/api/moment",
            Some(&secret),
            bad_speed.to_string().into_bytes(),
            422,
            "speed:",
        ),
        (
            "markup as a lesson",
            "/api/moment",
            Some(&secret),
            bad_lesson.to_string().into_bytes(),
            422,
            "lesson:",
        ),
        (
            "an unknown field",
            "/api/moment",
            Some(&secret),
            unknown_field.to_string().into_bytes(),
            400,
            "unknown field",
        ),
        (
            "an oversized moment",
            "/api/moment",
            Some(&secret),
            vec![b' '; 70 * 1024],
            413,
            "length limit",
        ),
        (
            "a skipped round",
            "/api/vote/open",
            Some(&secret),
            json!({"question": "q1", "round": 3, "choices": 3})
                .to_string()
                .into_bytes(),
            422,
            "round:",
        ),
        (
            "one choice",
            "/api/vote/open",
            Some(&secret),
            json!({"question": "q9", "round": 1, "choices": 1})
                .to_string()
                .into_bytes(),
            422,
            "choices:",
        ),
        (
            "a right choice out of range",
            "/api/vote/reveal",
            Some(&secret),
            json!({"question": "q1", "round": 1, "right": 7})
                .to_string()
                .into_bytes(),
            422,
            "right:",
        ),
    ];
    for (what, path, auth, body, status, reason) in cases {
        let r = post_raw(addr, path, auth, &body).await;
        assert_eq!(r.status, status, "{what}: {}", r.text());
        assert!(
            r.text().contains(reason),
            "{what}: {:?} should say {reason:?}",
            r.text()
        );
    }
    assert_eq!(public_now(addr).await, before, "nothing changed");
}

/// What is tried, where, with which secret, the body, the status expected and a word of the reason.
type Hostile<'a> = (&'a str, &'a str, Option<&'a str>, Vec<u8>, u16, &'a str);

fn ballot_q(device: &str, round: u32, choice: u8) -> Vec<u8> {
    json!({"device": format!("device-token-{device:0>8}"), "question": "q1", "round": round, "choice": choice})
        .to_string()
        .into_bytes()
}

#[tokio::test]
async fn one_device_cannot_stuff_a_vote_or_guess_the_secret() {
    let (_s, addr, secret) = start("stuffing").await;
    let open1 = json!({"question": "q1", "round": 1, "choices": 3});
    assert_eq!(
        post(addr, "/api/vote/open", Some(&secret), &open1)
            .await
            .status,
        204
    );
    let full = || async {
        let auth = format!("Bearer {secret}");
        let r = request(addr, "GET", "/api/class", &[("Authorization", &auth)], b"").await;
        serde_json::from_slice::<Value>(&r.unwrap().body).unwrap()
    };

    // One phone inventing device tokens: four count (a browser or two), the rest are refused.
    for i in 0..10 {
        let r = post_raw(
            addr,
            "/api/vote",
            None,
            &ballot_q(&format!("fake{i}"), 1, 1),
        )
        .await;
        if i < 4 {
            assert_eq!(r.status, 204, "device {i}");
        } else {
            assert_eq!(r.status, 429, "device {i}");
            assert!(r.text().starts_with("device:"), "{}", r.text());
        }
    }
    // A counted device may still change its vote.
    assert_eq!(
        post_raw(addr, "/api/vote", None, &ballot_q("fake0", 1, 2))
            .await
            .status,
        204
    );
    let votes = full().await["vote"]["rounds"][0]["votes"].clone();
    assert_eq!(votes.as_object().unwrap().len(), 4, "{votes}");
    assert_eq!(votes["device-token-000fake0"], 2, "a re-vote replaces");

    // Forty requests at once from one address: past the burst they are refused.
    let mut statuses = Vec::new();
    for _ in 0..40 {
        statuses.push(
            post_raw(addr, "/api/vote", None, &ballot_q("fake1", 1, 0))
                .await
                .status,
        );
    }
    let limited = statuses.iter().filter(|&&s| s == 429).count();
    assert!(limited >= 20, "{limited} of 40 refused: {statuses:?}");

    // Guessing the secret runs into the same limit; the presenter is never limited.
    let r = post(addr, "/api/moment", Some("00"), &moment(1)).await;
    assert_eq!(r.status, 429);
    for i in 0..30 {
        assert_eq!(
            post(addr, "/api/moment", Some(&secret), &moment(i))
                .await
                .status,
            204
        );
    }
}

#[tokio::test]
async fn streams_per_address_are_bounded_and_junk_does_not_crash_the_server() {
    let (_s, addr, secret) = start("junk").await;
    let mut open = Vec::new();
    for _ in 0..4 {
        let s = EventStream::open(addr).await.unwrap();
        assert_eq!(s.status, 200);
        open.push(s);
    }
    let fifth = EventStream::open(addr).await.unwrap();
    assert_eq!(fifth.status, 429, "a fifth tab from one address");
    drop(open.pop());
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(
        EventStream::open(addr).await.unwrap().status,
        200,
        "a closed stream frees its slot"
    );

    // Bytes that are not HTTP, a header too large, a half request left hanging.
    for junk in [
        b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03 not http".to_vec(),
        format!(
            "GET / HTTP/1.1\r\nHost: x\r\nX-Big: {}\r\n\r\n",
            "a".repeat(200_000)
        )
        .into_bytes(),
        b"POST /api/vote HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999\r\n\r\n"
            .to_vec(),
        b"POST /api/vote HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n".to_vec(),
        b"GET /\xff\xfe HTTP/1.1\r\nHost: x\r\n\r\n".to_vec(),
    ] {
        let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
        let _ = s.write_all(&junk).await;
        let mut buf = vec![0; 512];
        let _ = tokio::time::timeout(Duration::from_secs(2), s.read(&mut buf)).await;
    }
    let mut hanging = tokio::net::TcpStream::connect(addr).await.unwrap();
    hanging
        .write_all(b"POST /api/vote HTTP/1.1\r\nContent-Length: 50\r\n\r\n{")
        .await
        .unwrap();
    assert_eq!(
        post(addr, "/api/moment", Some(&secret), &moment(1))
            .await
            .status,
        204,
        "still serving"
    );
    assert_eq!(get(addr, "/", "").await.status, 200);
}

#[tokio::test]
async fn a_restarted_server_keeps_the_class_and_its_links() {
    let d = dist("restart");
    let state = d.parent().unwrap().join("class.json");
    let first = cli::start(&options(&d, Some(state.clone()))).await.unwrap();
    let (addr, secret) = (first.running.addr, first.running.shared.secret());
    assert_eq!(
        post(addr, "/api/moment", Some(&secret), &moment(7))
            .await
            .status,
        204
    );
    let open1 = json!({"question": "q1", "round": 1, "choices": 3});
    assert_eq!(
        post(addr, "/api/vote/open", Some(&secret), &open1)
            .await
            .status,
        204
    );
    assert_eq!(
        post_raw(addr, "/api/vote", None, &ballot_q("a", 1, 2))
            .await
            .status,
        204
    );
    let mut follower = EventStream::open(addr).await.unwrap();
    next_class(&mut follower).await;
    // Saved within moments of the change.
    let mut saved = false;
    for _ in 0..50 {
        if std::fs::read_to_string(&state).is_ok_and(|t| t.contains("device-token-0000000a")) {
            saved = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(saved, "the class reached {}", state.display());
    let presenter = first.presenter.clone();
    first.running.stop();
    // The follower's stream is cut, as when the process is killed.
    let cut = tokio::time::timeout(Duration::from_secs(5), follower.next())
        .await
        .unwrap();
    assert!(
        !matches!(cut, Ok(Some(_))),
        "the stream ends with the server"
    );

    let mut again = options(&d, Some(state.clone()));
    again.port = addr.port();
    let second = cli::start(&again).await.unwrap();
    assert_eq!(second.presenter, presenter, "the same links work");
    let now = public_now(second.running.addr).await;
    assert_eq!(now["moment"], moment(7));
    assert_eq!(now["vote"]["rounds"][0]["answered"], 1);
    assert_eq!(
        post(
            second.running.addr,
            "/api/moment",
            Some(&secret),
            &moment(8)
        )
        .await
        .status,
        204
    );
    // Once saved, the temporary file has been renamed over the state.
    let mut renamed = false;
    for _ in 0..50 {
        let text = std::fs::read_to_string(&state).unwrap_or_default();
        if text.contains(r#""tour_step":8"#) && !state.with_extension("tmp").exists() {
            renamed = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(renamed, "the new moment saved and no temporary file left");

    // A damaged state file is refused by name, not half read.
    let state = d.parent().unwrap().join("damaged.json");
    std::fs::write(
        &state,
        r#"{"secret": "abc", "version": 1, "moment": null, "vote": null}"#,
    )
    .unwrap();
    let e = cli::start(&options(&d, Some(state.clone())))
        .await
        .err()
        .unwrap();
    assert!(e.contains("--state") && e.contains("secret"), "{e}");
    std::fs::write(&state, "{").unwrap();
    let e = cli::start(&options(&d, Some(state))).await.err().unwrap();
    assert!(e.contains("--state"), "{e}");
}

#[tokio::test]
async fn a_dist_without_a_page_is_refused_by_name() {
    let e = cli::start(&options(Path::new("/nonexistent-dist"), None))
        .await
        .err()
        .unwrap();
    assert!(e.starts_with("--dist"), "{e}");
}

/// The drill vote the tests ask: the stored offset of pv-count, variant 7.
fn drill_open(round: u32) -> Value {
    json!({"question": "drill.stored_offset.7", "round": round,
           "drill": {"kind": "stored_offset", "variant": 7}})
}

/// The engine's answers to that exercise, as a phone would type them, and a wrong one.
fn drill_answers() -> (Vec<String>, Vec<String>) {
    let ex = classroom::class::DrillRef {
        kind: "stored_offset".into(),
        variant: 7,
    }
    .exercise()
    .unwrap();
    let right: Vec<String> = ex.blanks.iter().map(|b| b.answer.to_string()).collect();
    let mut wrong = right.clone();
    let engine::drill::Answer::Number(n) = ex.blanks[0].answer else {
        panic!("the first blank is a number");
    };
    wrong[0] = (n + 1).to_string();
    (right, wrong)
}

fn drill_ballot(device: &str, round: u32, answers: &[String]) -> Value {
    json!({"device": format!("device-token-{device:0>8}"), "question": "drill.stored_offset.7",
           "round": round, "answers": answers})
}

#[tokio::test]
async fn a_drill_exercise_is_voted_on_judged_by_the_engine_and_spread_after_the_reveal() {
    let (_s, addr, secret) = start("drill").await;
    // A student cannot open one; a bad kind is refused by its field.
    assert_eq!(
        post(addr, "/api/vote/open", None, &drill_open(1))
            .await
            .status,
        401
    );
    let bad =
        json!({"question": "drill.nope.7", "round": 1, "drill": {"kind": "nope", "variant": 7}});
    let r = post(addr, "/api/vote/open", Some(&secret), &bad).await;
    assert_eq!(r.status, 422);
    assert!(r.text().starts_with("drill.kind:"), "{}", r.text());
    assert_eq!(public_now(addr).await["vote"], Value::Null);
    let r = post(addr, "/api/vote/open", Some(&secret), &drill_open(1)).await;
    assert_eq!(r.status, 204, "{}", r.text());
    let public = public_now(addr).await;
    assert_eq!(
        public["vote"]["drill"],
        json!({"kind": "stored_offset", "variant": 7})
    );

    let (right, wrong) = drill_answers();
    let blanks = right.len();
    assert!(blanks >= 1);
    // A tour-question ballot is refused on a drill vote, and an unreadable answer
    // or a wrong count names its field; nothing changes.
    let v = public_now(addr).await["version"].clone();
    let choice = json!({"device": "device-token-0000000a", "question": "drill.stored_offset.7", "round": 1, "choice": 0});
    let r = post(addr, "/api/vote", None, &choice).await;
    assert_eq!(r.status, 422);
    assert!(r.text().starts_with("answers:"), "{}", r.text());
    let mut unreadable = right.clone();
    unreadable[0] = "twelve".into();
    let r = post(addr, "/api/vote", None, &drill_ballot("a", 1, &unreadable)).await;
    assert_eq!(r.status, 422);
    assert!(r.text().starts_with("answers[0] (offset):"), "{}", r.text());
    let more = [right.clone(), vec![right[0].clone()]].concat();
    let r = post(addr, "/api/vote", None, &drill_ballot("a", 1, &more)).await;
    assert_eq!(r.status, 422);
    assert!(
        r.text()
            .starts_with(&format!("answers: {} given", blanks + 1)),
        "{}",
        r.text()
    );
    let mut long = right.clone();
    long[0] = "1".repeat(200);
    let r = post(addr, "/api/vote", None, &drill_ballot("a", 1, &long)).await;
    assert_eq!(r.status, 422);
    assert!(r.text().contains("longer than"), "{}", r.text());
    assert_eq!(public_now(addr).await["version"], v, "nothing changed");

    // One counted answer per device: a re-answer replaces.
    for (d, a) in [("a", &wrong), ("a", &right), ("b", &right), ("c", &wrong)] {
        let r = post(addr, "/api/vote", None, &drill_ballot(d, 1, a)).await;
        assert_eq!(r.status, 204, "{}", r.text());
    }
    let r1 = public_now(addr).await["vote"]["rounds"][0].clone();
    assert_eq!(r1["answered"], 3);
    assert_eq!(r1["judged"], Value::Null, "hidden until revealed");
    // Answers with spaces read the same and count as the same answer.
    let mut spaced = right.clone();
    spaced[0] = format!("  {} ", right[0]);
    assert_eq!(
        post(addr, "/api/vote", None, &drill_ballot("d", 1, &spaced))
            .await
            .status,
        204
    );
    let spread = json!({"question": "drill.stored_offset.7", "round": 1});
    assert_eq!(
        post(addr, "/api/vote/reveal", Some(&secret), &spread)
            .await
            .status,
        204
    );
    // First the spread alone, for the discussion: nothing says which is right.
    let judged = public_now(addr).await["vote"]["rounds"][0]["judged"].clone();
    assert_eq!(
        judged,
        json!({"right": null, "wrong": null, "spread": [
            {"answer": right.join(" · "), "count": 3, "right": null, "other": false},
            {"answer": wrong.join(" · "), "count": 1, "right": null, "other": false},
        ]})
    );
    let reveal = json!({"question": "drill.stored_offset.7", "round": 1, "marked": true});
    assert_eq!(
        post(addr, "/api/vote/reveal", Some(&secret), &reveal)
            .await
            .status,
        204
    );
    let public = public_now(addr).await;
    let judged = &public["vote"]["rounds"][0]["judged"];
    assert_eq!(
        (judged["right"].clone(), judged["wrong"].clone()),
        (json!(3), json!(1))
    );
    assert_eq!(
        judged["spread"],
        json!([
            {"answer": right.join(" · "), "count": 3, "right": true, "other": false},
            {"answer": wrong.join(" · "), "count": 1, "right": false, "other": false},
        ])
    );
    assert!(!public.to_string().contains("device-token"));
    // Round 2 asks the same exercise; another exercise under the same id is refused.
    let other = json!({"question": "drill.stored_offset.7", "round": 2, "drill": {"kind": "stored_offset", "variant": 8}});
    let r = post(addr, "/api/vote/open", Some(&secret), &other).await;
    assert!(r.text().starts_with("drill:"), "{}", r.text());
    assert_eq!(
        post(addr, "/api/vote/open", Some(&secret), &drill_open(2))
            .await
            .status,
        204
    );
    assert_eq!(
        post(addr, "/api/vote", None, &drill_ballot("a", 2, &wrong))
            .await
            .status,
        204
    );
}

#[test]
fn a_drill_rounds_spread_keeps_eight_rows_and_sums_the_others() {
    use classroom::class::{Judged, Round};
    let mut r = Round {
        round: 1,
        choices: 0,
        open: false,
        revealed: true,
        right: None,
        votes: Default::default(),
        answers: Default::default(),
        marked: true,
    };
    for i in 0..12u32 {
        for k in 0..(12 - i).min(3) {
            r.answers.insert(
                format!("d{i}-{k}"),
                Judged {
                    answer: i.to_string(),
                    right: i == 5,
                },
            );
        }
    }
    let t = r.judged();
    assert_eq!((t.right, t.wrong), (Some(3), Some(30)));
    assert_eq!(t.spread.len(), 9);
    assert_eq!(
        (t.spread[0].answer.as_str(), t.spread[0].right),
        ("5", Some(true)),
        "among equal counts the right answer first"
    );
    let other = &t.spread[8];
    assert!(other.other);
    assert_eq!(
        other.count,
        33 - t.spread[..8].iter().map(|s| s.count).sum::<u32>()
    );
}

#[tokio::test]
async fn a_restarted_server_keeps_the_drill_vote_and_judges_again() {
    let d = dist("restart-drill");
    let state = d.parent().unwrap().join("class.json");
    let first = cli::start(&options(&d, Some(state.clone()))).await.unwrap();
    let (addr, secret) = (first.running.addr, first.running.shared.secret());
    assert_eq!(
        post(addr, "/api/vote/open", Some(&secret), &drill_open(1))
            .await
            .status,
        204
    );
    let (right, wrong) = drill_answers();
    assert_eq!(
        post(addr, "/api/vote", None, &drill_ballot("a", 1, &right))
            .await
            .status,
        204
    );
    let mut saved = false;
    for _ in 0..50 {
        if std::fs::read_to_string(&state).is_ok_and(|t| t.contains("device-token-0000000a")) {
            saved = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(saved);
    assert!(
        !std::fs::read_to_string(&state)
            .unwrap()
            .contains("scenario"),
        "the exercise itself is not saved: the engine makes it again"
    );
    first.running.stop();
    let second = cli::start(&options(&d, Some(state.clone()))).await.unwrap();
    let addr = second.running.addr;
    assert_eq!(
        post(addr, "/api/vote", None, &drill_ballot("b", 1, &wrong))
            .await
            .status,
        204,
        "the restarted server judges again"
    );
    let reveal = json!({"question": "drill.stored_offset.7", "round": 1, "marked": true});
    assert_eq!(
        post(addr, "/api/vote/reveal", Some(&secret), &reveal)
            .await
            .status,
        204
    );
    let judged = public_now(addr).await["vote"]["rounds"][0]["judged"].clone();
    assert_eq!(
        (judged["right"].clone(), judged["wrong"].clone()),
        (json!(1), json!(1))
    );
}

#[tokio::test]
async fn the_phones_hear_when_the_lecturer_goes_away_and_comes_back() {
    let o = Options {
        away_after_ms: 300,
        ..options(&dist("away"), None)
    };
    let s = cli::start(&o).await.unwrap();
    let (addr, secret) = (s.running.addr, s.running.shared.secret());
    let mut phone = EventStream::open(addr).await.unwrap();
    assert_eq!(next_class(&mut phone).await["lecturer_away"], false);
    assert_eq!(
        post(addr, "/api/moment", Some(&secret), &moment(1))
            .await
            .status,
        204
    );
    let moved = next_class(&mut phone).await;
    assert_eq!(
        (moved["version"].clone(), moved["lecturer_away"].clone()),
        (json!(1), json!(false))
    );

    // The same moment again (the heartbeat) is no change: no event, no new version.
    assert_eq!(
        post(addr, "/api/moment", Some(&secret), &moment(1))
            .await
            .status,
        204
    );
    let quiet = tokio::time::timeout(Duration::from_millis(150), phone.next()).await;
    assert!(quiet.is_err(), "a repeated moment sends nothing: {quiet:?}");

    // Nothing from the presenter's windows: the phones are told, the moment stays.
    let away = next_class(&mut phone).await;
    assert_eq!(away["lecturer_away"], true);
    assert_eq!(
        (away["version"].clone(), away["moment"].clone()),
        (json!(1), moment(1))
    );

    // A student's request is no sign of the lecturer.
    let ballot = json!({"device": "d".repeat(16), "question": "q", "round": 1, "choice": 0});
    assert_eq!(post(addr, "/api/vote", None, &ballot).await.status / 100, 4);
    assert_eq!(public_now(addr).await["lecturer_away"], true);

    // The next heartbeat brings the lecturer back, with the same moment.
    assert_eq!(
        post(addr, "/api/moment", Some(&secret), &moment(1))
            .await
            .status,
        204
    );
    let back = next_class(&mut phone).await;
    assert_eq!(back["lecturer_away"], false);
    assert_eq!(back["version"], 1);
    s.running.stop();
}

/// `index.html` with the marks of the build's first frame (a release build's).
const FRAMED_INDEX: &str = "<!doctype html><html lang=\"zh-CN\"><head></head><body><div id=\"app\">\n<!-- first-frame --><div>the build's frame</div><!-- /first-frame --></div></body></html>";

/// A server over a dist whose `index.html` is [`FRAMED_INDEX`].
async fn start_framed(name: &str) -> Started {
    let d = dist(name);
    std::fs::write(d.join("index.html"), FRAMED_INDEX).unwrap();
    cli::start(&options(&d, None)).await.unwrap()
}

/// A QR code's address (`?scenario=…&t=…`) gets the page with that lesson's
/// graph at that moment drawn in place of the build's first frame, gzip for a
/// phone on the LAN, the same bytes for the next phone; an address naming
/// anything else gets the page as built.
#[tokio::test]
async fn a_linked_moment_is_drawn_into_the_page() {
    let index = FRAMED_INDEX;
    let s = start_framed("linked").await;
    let addr = s.running.addr;

    let gunzip = |r: &Reply| {
        let mut out = String::new();
        flate2::read::GzDecoder::new(&r.body[..])
            .read_to_string(&mut out)
            .unwrap();
        out
    };
    let link = "/?scenario=savepoint-rescale&t=2040&lang=en";
    let first = get(addr, link, "gzip, deflate").await;
    assert_eq!(
        (first.status, first.header("content-encoding")),
        (200, Some("gzip"))
    );
    let page = gunzip(&first);
    assert!(page.contains("<html data-linked-frame lang=\"zh-CN\">"));
    assert!(!page.contains("the build's frame"));
    assert!(page.contains("data-first-frame=\"savepoint-rescale\""));
    assert!(page.contains("t = 2040 ms"), "the clock at the moment");
    let again = get(
        addr,
        "/index.html?lang=zh&t=2040&scenario=savepoint-rescale",
        "gzip",
    )
    .await;
    assert_eq!(again.body, first.body, "one drawing per moment");

    let default = gunzip(&get(addr, "/?lang=en", "gzip").await);
    assert!(
        default.contains("data-first-frame=\"odd-even-sum\"")
            && default.contains("class-bar--following")
    );
    for plain in [
        "/?presenter=1",
        "/?scenario=savepoint-rescale&tab=storage",
        "/?scenario=no-such-lesson",
        "/?scenario=savepoint-rescale&t=soon",
    ] {
        let r = get(addr, plain, "identity").await;
        assert_eq!((r.status, r.text()), (200, index.to_string()), "{plain}");
    }
    s.running.stop();
}

/// Waits for the server's drawing after the first `begun`.
async fn drawing_begins(shared: &classroom::server::Shared, begun: u64) {
    tokio::time::timeout(Duration::from_secs(10), async {
        while shared.linked_drawings().0 == begun {
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
    })
    .await
    .expect("a drawing begins within 10 s");
}

/// Forty phones scanning one code at once cost one drawing, all get its page,
/// and while another moment is drawn, a moment drawn already is served without
/// waiting for it.
#[tokio::test]
async fn a_storm_on_one_moment_draws_it_once_and_a_drawing_holds_up_no_other_moment() {
    let s = start_framed("linked-storm").await;
    let (addr, shared) = (s.running.addr, s.running.shared.clone());
    let storm = "/?scenario=savepoint-rescale&t=1000";
    let phones: Vec<_> = (0..40)
        .map(|_| tokio::spawn(get(addr, storm, "gzip")))
        .collect();
    let mut pages = Vec::new();
    for phone in phones {
        pages.push(phone.await.unwrap());
    }
    assert!(pages.iter().all(|p| p.status == 200
        && p.header("content-encoding") == Some("gzip")
        && p.body == pages[0].body));
    assert_eq!(
        shared.linked_drawings(),
        (1, 1),
        "one drawing for forty phones"
    );

    // The drawn page must come back while another moment's drawing runs. A
    // drawing takes tens of milliseconds and a drawn page well under one, but
    // whether the drawing was still running is timing, hence a few tries (the
    // first passes unless the machine stalls for the whole drawing).
    let mut answered_during_a_drawing = false;
    for t in [1100, 1200, 1300, 1400, 1500] {
        let (begun, _) = shared.linked_drawings();
        let other = tokio::spawn(async move {
            get(addr, &format!("/?scenario=savepoint-rescale&t={t}"), "gzip").await
        });
        drawing_begins(&shared, begun).await;
        let drawn = get(addr, storm, "gzip").await;
        let still_drawing = shared.linked_drawings().1 == begun;
        assert!(
            drawn.body == pages[0].body,
            "the drawn page, from the cache"
        );
        assert_eq!(other.await.unwrap().status, 200);
        assert_eq!(shared.linked_drawings(), (begun + 1, begun + 1));
        if still_drawing {
            answered_during_a_drawing = true;
            break;
        }
    }
    assert!(answered_during_a_drawing);
    s.running.stop();
}

/// A moment that cannot be drawn (here: a debug build's page, without the
/// first frame's marks) is tried once, not once per phone: they all get the
/// page as built.
#[tokio::test]
async fn a_moment_that_cannot_be_drawn_is_tried_once() {
    let (s, addr, _) = start("linked-failure").await;
    let shared = s.running.shared.clone();
    let link = "/?scenario=savepoint-rescale&t=2040";
    let phones: Vec<_> = (0..10)
        .map(|_| tokio::spawn(get(addr, link, "identity")))
        .collect();
    for phone in phones {
        let r = phone.await.unwrap();
        assert_eq!(
            (r.status, r.text()),
            (200, "<!doctype html><title>lab</title>".repeat(50))
        );
    }
    let later = get(
        addr,
        "/index.html?t=2040&scenario=savepoint-rescale",
        "gzip",
    )
    .await;
    assert_eq!(later.status, 200);
    assert_eq!(shared.linked_drawings(), (1, 1));
    s.running.stop();
}

/// A phone that leaves while its moment is drawn does not cancel the drawing:
/// the next phone gets it without a second one.
#[tokio::test]
async fn a_phone_leaving_mid_drawing_does_not_cost_a_second_drawing() {
    let s = start_framed("linked-leave").await;
    let (addr, shared) = (s.running.addr, s.running.shared.clone());
    let link = "/?scenario=savepoint-rescale&t=3000";
    let mut leaving = tokio::net::TcpStream::connect(addr).await.unwrap();
    let head = format!("GET {link} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    leaving.write_all(head.as_bytes()).await.unwrap();
    drawing_begins(&shared, 0).await;
    drop(leaving);
    // Time for the server to see the phone gone (and drop its request).
    tokio::time::sleep(Duration::from_millis(5)).await;
    let r = get(addr, link, "gzip").await;
    assert_eq!(r.status, 200);
    assert_eq!(shared.linked_drawings(), (1, 1));
    s.running.stop();
}
