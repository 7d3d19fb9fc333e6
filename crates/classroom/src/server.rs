//! The HTTP side: the page's files, the live channel (server-sent events), the
//! presenter's and the students' messages, rate limits, and the class saved to
//! its state file.
//!
//! Routes:
//! - `GET /api/events`: an event stream; each event (`class`) is the [`Public`]
//!   view as JSON, the current one first (a late joiner lands on the moment).
//!   Besides the class's changes, an event goes out when the lecturer goes
//!   away (no request with the secret for [`Config::away_after`]) or comes back.
//! - `POST /api/moment` ([`Moment`]), `/api/vote/open` ([`OpenVote`]),
//!   `/api/vote/close` and `/api/vote/reveal` ([`RoundRef`]): the presenter only,
//!   `Authorization: Bearer <secret>`.
//! - `GET /api/class`: the presenter's full view (who voted what).
//! - `POST /api/vote` ([`Ballot`]): a student's vote (a choice, or a drill
//!   exercise's answers, judged by the engine: `class::judge`).
//! - anything else: a file of the page.

use std::collections::{HashMap, HashSet};
use std::convert::Infallible;
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::body::{Body, Bytes};
use axum::extract::{ConnectInfo, DefaultBodyLimit, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode, Uri};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use futures_util::Stream;
use serde::de::DeserializeOwned;
use subtle::ConstantTimeEq as _;
use tokio::sync::{watch, Semaphore};

use crate::class::{Ballot, Class, Moment, OpenVote, Public, RoundRef};
use crate::linked;
use crate::site::{Asset, Encoding, Refusal, Site};
use checkpoint_lab::playback::Link;

/// Largest presenter message (a moment carries a whole deflated scenario).
pub const MAX_PRESENTER_BODY: usize = 64 * 1024;
/// Largest student message (a vote is under 200 bytes).
pub const MAX_STUDENT_BODY: usize = 1024;
/// Requests a client address may make to the API in a burst without the presenter's secret.
pub const BURST: f64 = 20.0;
/// …and per second after that.
pub const PER_SECOND: f64 = 5.0;
/// How long a phone's browser waits before reconnecting a dropped stream.
pub const RETRY: Duration = Duration::from_millis(1000);
/// Linked moments drawn at once (each takes a core for 50–100 ms): any
/// address on the LAN can name new moments, and the cores also serve the class.
pub const DRAWING_AT_ONCE: usize = 2;

/// How the server runs.
#[derive(Clone, Debug)]
pub struct Config {
    /// The release page.
    pub dist: PathBuf,
    /// Where the class is kept across restarts (none: a new class each start).
    pub state: Option<PathBuf>,
    /// Open event streams allowed per client address (a phone needs one per tab).
    pub streams_per_ip: usize,
    /// Devices counted per client address in one round (a phone with a browser
    /// or two; more from one address is one phone minting tokens).
    pub devices_per_ip: usize,
    /// The lecturer is away after this long without a request carrying the
    /// secret (the presenter's windows repeat their moment every 5 s).
    pub away_after: Duration,
}

/// When the presenter's windows were last heard from.
struct Presence {
    last: Instant,
    away: bool,
}

struct Bucket {
    tokens: f64,
    at: Instant,
}

/// The device tokens one address voted as, by question and round.
type Voters = HashMap<(String, u32), HashSet<String>>;

/// The server's state, shared by every request.
pub struct Shared {
    site: Site,
    secret: Vec<u8>,
    class: Mutex<Class>,
    /// The public view as JSON, serialized once per change for every stream.
    public: watch::Sender<(u64, Arc<str>)>,
    /// The class to save (the saver keeps only the latest).
    to_save: watch::Sender<Option<Class>>,
    buckets: Mutex<HashMap<IpAddr, Bucket>>,
    streams: Mutex<HashMap<IpAddr, usize>>,
    streams_per_ip: usize,
    /// The devices each address voted as, per question and round.
    voters: Mutex<HashMap<IpAddr, Voters>>,
    devices_per_ip: usize,
    /// Lock order: `class`, then `presence`.
    presence: Mutex<Presence>,
    away_after: Duration,
    /// Linked moments' pages, drawn once each: held only to find a moment's
    /// slot, so a drawing delays only the requests for its own moment.
    linked: Mutex<linked::Cache>,
    /// Permits for [`DRAWING_AT_ONCE`] drawings.
    drawing: Arc<Semaphore>,
    /// Drawings begun, and ended (drawn or failed).
    drawings: (AtomicU64, AtomicU64),
}

impl Shared {
    /// Builds the state: the page loaded, the class read from `config.state` or made new.
    pub fn new(config: &Config) -> Result<Arc<Shared>, String> {
        let site = Site::load(&config.dist)?;
        let class = match &config.state {
            Some(p) => Class::load(p)?,
            None => None,
        };
        let class = match class {
            Some(c) => c,
            None => Class::new(new_secret()?),
        };
        if let Some(p) = &config.state {
            // At once, so the printed links are those a restart finds.
            class
                .save(p)
                .map_err(|e| format!("--state {}: {e}", p.display()))?;
        }
        let public = public_json(&class, false);
        let (to_save, mut saves) = watch::channel(None::<Class>);
        if let Some(path) = config.state.clone() {
            tokio::spawn(async move {
                while saves.changed().await.is_ok() {
                    let Some(class) = saves.borrow_and_update().clone() else {
                        continue;
                    };
                    let path = path.clone();
                    let done = tokio::task::spawn_blocking(move || class.save(&path)).await;
                    if let Ok(Err(e)) = done {
                        eprintln!("classroom: could not save the class: {e}");
                    }
                }
            });
        }
        Ok(Arc::new(Shared {
            site,
            secret: class.secret.as_bytes().to_vec(),
            class: Mutex::new(class),
            public: watch::channel(public).0,
            to_save,
            buckets: Mutex::new(HashMap::new()),
            streams: Mutex::new(HashMap::new()),
            streams_per_ip: config.streams_per_ip,
            voters: Mutex::new(HashMap::new()),
            devices_per_ip: config.devices_per_ip,
            // A restarted server gives the lecturer's windows time to come back.
            presence: Mutex::new(Presence {
                last: Instant::now(),
                away: false,
            }),
            away_after: config.away_after,
            linked: Mutex::new(linked::Cache::default()),
            drawing: Arc::new(Semaphore::new(DRAWING_AT_ONCE)),
            drawings: (AtomicU64::new(0), AtomicU64::new(0)),
        }))
    }

    /// The presenter's secret.
    pub fn secret(&self) -> String {
        String::from_utf8_lossy(&self.secret).into_owned()
    }

    /// The page as loaded.
    pub fn site(&self) -> &Site {
        &self.site
    }

    /// How many linked moments' drawings have begun (a class scanning one
    /// code adds one) and how many of them have ended.
    pub fn linked_drawings(&self) -> (u64, u64) {
        let (begun, ended) = &self.drawings;
        (begun.load(Ordering::Relaxed), ended.load(Ordering::Relaxed))
    }

    fn change(&self, f: impl FnOnce(&mut Class) -> Result<(), String>) -> Response {
        let mut class = self.class.lock().unwrap_or_else(|e| e.into_inner());
        let mut next = class.clone();
        if let Err(e) = f(&mut next) {
            return refuse(StatusCode::UNPROCESSABLE_ENTITY, e);
        }
        if next != *class {
            // A repeated heartbeat changes nothing: no event, no save.
            *class = next;
            self.publish(&class);
            self.to_save.send_replace(Some(class.clone()));
        }
        StatusCode::NO_CONTENT.into_response()
    }

    /// Sends `class`'s public view, with the lecturer's presence, to every stream.
    fn publish(&self, class: &Class) {
        let away = self.presence.lock().unwrap_or_else(|e| e.into_inner()).away;
        self.public.send_replace(public_json(class, away));
    }

    /// A request with the secret arrived: the lecturer is here (the phones are
    /// told if they were told otherwise).
    fn heard_lecturer(&self) {
        let was_away = {
            let mut p = self.presence.lock().unwrap_or_else(|e| e.into_inner());
            p.last = Instant::now();
            std::mem::replace(&mut p.away, false)
        };
        if was_away {
            self.publish(&self.class.lock().unwrap_or_else(|e| e.into_inner()));
        }
    }

    /// Marks the lecturer away once nothing came for `away_after`; true when
    /// this call did.
    fn check_presence(&self) -> bool {
        let went = {
            let mut p = self.presence.lock().unwrap_or_else(|e| e.into_inner());
            let went = !p.away && p.last.elapsed() >= self.away_after;
            p.away |= went;
            went
        };
        if went {
            self.publish(&self.class.lock().unwrap_or_else(|e| e.into_inner()));
        }
        went
    }

    /// Whether `headers` carry the presenter's secret (compared in constant time).
    fn is_presenter(&self, headers: &HeaderMap) -> bool {
        let Some(given) = headers
            .get(header::AUTHORIZATION)
            .and_then(|v| v.as_bytes().strip_prefix(b"Bearer "))
        else {
            return false;
        };
        secrets_match(given, &self.secret)
    }

    /// Takes one token from `ip`'s bucket; false when it is empty.
    fn allow(&self, ip: IpAddr) -> bool {
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        let now = Instant::now();
        if buckets.len() > 50_000 {
            // Bounded: forget the addresses whose buckets have refilled.
            buckets.retain(|_, b| {
                b.tokens + now.duration_since(b.at).as_secs_f64() * PER_SECOND < BURST
            });
        }
        let b = buckets.entry(ip).or_insert(Bucket {
            tokens: BURST,
            at: now,
        });
        b.tokens = (b.tokens + now.duration_since(b.at).as_secs_f64() * PER_SECOND).min(BURST);
        b.at = now;
        if b.tokens < 1.0 {
            return false;
        }
        b.tokens -= 1.0;
        true
    }
}

/// Compares a presented secret with the class's in constant time (the time does
/// not depend on where the first difference is; a different length fails at once,
/// and the length is no secret).
pub fn secrets_match(given: &[u8], secret: &[u8]) -> bool {
    given.ct_eq(secret).into()
}

/// 256 random bits from the operating system, as 64 hex digits.
pub fn new_secret() -> Result<String, String> {
    let mut bytes = [0u8; 32];
    getrandom::getrandom(&mut bytes).map_err(|e| format!("no randomness from the OS: {e}"))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

fn public_json(class: &Class, lecturer_away: bool) -> (u64, Arc<str>) {
    let public = Public {
        lecturer_away,
        ..class.public()
    };
    let json = serde_json::to_string(&public).expect("the public view always serializes");
    (class.version, json.into())
}

fn refuse(status: StatusCode, reason: impl Into<String>) -> Response {
    let mut r = (status, reason.into()).into_response();
    r.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    r
}

fn parse<T: DeserializeOwned>(body: &Bytes) -> Result<T, Response> {
    serde_json::from_slice(body).map_err(|e| refuse(StatusCode::BAD_REQUEST, format!("body: {e}")))
}

/// The router over `shared`.
pub fn router(shared: Arc<Shared>) -> Router {
    let presenter = Router::new()
        .route("/api/moment", post(moment))
        .route("/api/vote/open", post(vote_open))
        .route("/api/vote/close", post(vote_close))
        .route("/api/vote/reveal", post(vote_reveal))
        .route("/api/class", get(full_class))
        .layer(DefaultBodyLimit::max(MAX_PRESENTER_BODY));
    let students = Router::new()
        .route("/api/vote", post(vote))
        .route("/api/events", get(events))
        .layer(DefaultBodyLimit::max(MAX_STUDENT_BODY));
    Router::new()
        .merge(presenter)
        .merge(students)
        .fallback(static_file)
        .with_state(shared)
}

/// Checks the secret (a wrong one costs the caller a token, so it cannot be guessed fast).
fn presenter_only(s: &Shared, ip: IpAddr, headers: &HeaderMap) -> Result<(), Response> {
    if s.is_presenter(headers) {
        s.heard_lecturer();
        return Ok(());
    }
    if !s.allow(ip) {
        return Err(refuse(
            StatusCode::TOO_MANY_REQUESTS,
            "too many requests: wait a second",
        ));
    }
    Err(refuse(
        StatusCode::UNAUTHORIZED,
        "only the presenter (with the class's secret) can do this",
    ))
}

type Ctx = (State<Arc<Shared>>, ConnectInfo<SocketAddr>, HeaderMap);

async fn moment(
    State(s): State<Arc<Shared>>,
    ConnectInfo(a): ConnectInfo<SocketAddr>,
    h: HeaderMap,
    body: Bytes,
) -> Response {
    presenter_call(&s, a, &h, &body, |c, m: Moment| c.set_moment(m))
}

async fn vote_open(
    State(s): State<Arc<Shared>>,
    ConnectInfo(a): ConnectInfo<SocketAddr>,
    h: HeaderMap,
    body: Bytes,
) -> Response {
    presenter_call(&s, a, &h, &body, |c, o: OpenVote| c.open(o))
}

async fn vote_close(
    State(s): State<Arc<Shared>>,
    ConnectInfo(a): ConnectInfo<SocketAddr>,
    h: HeaderMap,
    body: Bytes,
) -> Response {
    presenter_call(&s, a, &h, &body, |c, r: RoundRef| c.close(r))
}

async fn vote_reveal(
    State(s): State<Arc<Shared>>,
    ConnectInfo(a): ConnectInfo<SocketAddr>,
    h: HeaderMap,
    body: Bytes,
) -> Response {
    presenter_call(&s, a, &h, &body, |c, r: RoundRef| c.reveal(r))
}

fn presenter_call<T: DeserializeOwned + Clone>(
    s: &Shared,
    addr: SocketAddr,
    headers: &HeaderMap,
    body: &Bytes,
    f: impl FnOnce(&mut Class, T) -> Result<(), String>,
) -> Response {
    if let Err(r) = presenter_only(s, addr.ip(), headers) {
        return r;
    }
    match parse::<T>(body) {
        Ok(msg) => s.change(|c| f(c, msg)),
        Err(r) => r,
    }
}

async fn full_class((State(s), ConnectInfo(a), h): Ctx) -> Response {
    if let Err(r) = presenter_only(&s, a.ip(), &h) {
        return r;
    }
    let class = s.class.lock().unwrap_or_else(|e| e.into_inner()).clone();
    let mut r = axum::Json(
        serde_json::json!({ "version": class.version, "moment": class.moment, "vote": class.vote }),
    )
    .into_response();
    r.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    r
}

async fn vote(
    State(s): State<Arc<Shared>>,
    ConnectInfo(a): ConnectInfo<SocketAddr>,
    body: Bytes,
) -> Response {
    if !s.allow(a.ip()) {
        return refuse(
            StatusCode::TOO_MANY_REQUESTS,
            "too many votes: wait a second",
        );
    }
    let b = match parse::<Ballot>(&body) {
        Ok(b) if b.choice.is_none() && b.answers.is_none() => {
            return refuse(
                StatusCode::BAD_REQUEST,
                "body: missing field `choice` (a drill exercise's: `answers`)",
            )
        }
        Ok(b) => b,
        Err(r) => return r,
    };
    let (ip, key) = (a.ip(), (b.question.clone(), b.round));
    let device = b.device.clone();
    {
        let voters = s.voters.lock().unwrap_or_else(|e| e.into_inner());
        let known = voters.get(&ip).and_then(|rounds| rounds.get(&key));
        if known.is_some_and(|d| !d.contains(&device) && d.len() >= s.devices_per_ip) {
            return refuse(
                StatusCode::TOO_MANY_REQUESTS,
                format!(
                    "device: this address already voted as {} devices in this round",
                    s.devices_per_ip
                ),
            );
        }
    }
    let r = s.change(|c| c.cast(b));
    if r.status().is_success() {
        let mut voters = s.voters.lock().unwrap_or_else(|e| e.into_inner());
        voters
            .entry(ip)
            .or_default()
            .entry(key)
            .or_default()
            .insert(device);
    }
    r
}

/// Gives back a stream's slot for its address when the stream ends.
struct StreamSlot {
    shared: Arc<Shared>,
    ip: IpAddr,
}

impl Drop for StreamSlot {
    fn drop(&mut self) {
        let mut streams = self
            .shared
            .streams
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        if let Some(n) = streams.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                streams.remove(&self.ip);
            }
        }
    }
}

async fn events(State(s): State<Arc<Shared>>, ConnectInfo(a): ConnectInfo<SocketAddr>) -> Response {
    let ip = a.ip();
    {
        let mut streams = s.streams.lock().unwrap_or_else(|e| e.into_inner());
        let n = streams.entry(ip).or_insert(0);
        if *n >= s.streams_per_ip {
            return refuse(
                StatusCode::TOO_MANY_REQUESTS,
                format!(
                    "too many open streams from this address (at most {})",
                    s.streams_per_ip
                ),
            );
        }
        *n += 1;
    }
    let slot = StreamSlot {
        shared: s.clone(),
        ip,
    };
    let rx = s.public.subscribe();
    Sse::new(class_events(rx, slot))
        .keep_alive(KeepAlive::new().interval(Duration::from_secs(15)))
        .into_response()
}

/// The current view at once, then every change. A slow phone skips to the latest
/// view rather than queueing old ones (the watch channel keeps only the newest).
fn class_events(
    rx: watch::Receiver<(u64, Arc<str>)>,
    slot: StreamSlot,
) -> impl Stream<Item = Result<Event, Infallible>> {
    futures_util::stream::unfold((rx, slot, true), |(mut rx, slot, first)| async move {
        if !first && rx.changed().await.is_err() {
            return None;
        }
        let (version, json) = rx.borrow_and_update().clone();
        let mut event = Event::default()
            .event("class")
            .id(version.to_string())
            .data(&*json);
        if first {
            event = event.retry(RETRY);
        }
        Some((Ok(event), (rx, slot, false)))
    })
}

async fn static_file(
    State(s): State<Arc<Shared>>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
) -> Response {
    if method != Method::GET && method != Method::HEAD {
        return refuse(
            StatusCode::METHOD_NOT_ALLOWED,
            "the page's files are read with GET",
        );
    }
    let asset = match s.site.lookup(uri.path()) {
        Ok(a) => a,
        // 404 as for any missing file: a probe learns nothing about what lies outside.
        Err(Refusal::BadPath) => {
            return refuse(StatusCode::NOT_FOUND, "not found: not a path of the page")
        }
        Err(Refusal::NotFound) => return refuse(StatusCode::NOT_FOUND, "not found"),
    };
    let drawn = match uri.path() {
        "/" | "/index.html" => linked_page(&s, asset, uri.query().unwrap_or("")).await,
        _ => None,
    };
    let asset = drawn.as_deref().unwrap_or(asset);
    let accept = headers
        .get(header::ACCEPT_ENCODING)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    let (encoding, bytes) = asset.pick(accept);
    let mut r = Response::new(Body::from(bytes.clone()));
    let h = r.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static(asset.content_type),
    );
    h.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static(asset.cache_control),
    );
    h.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
    h.insert(
        "x-content-type-options",
        HeaderValue::from_static("nosniff"),
    );
    match encoding {
        Encoding::Brotli => {
            h.insert(header::CONTENT_ENCODING, HeaderValue::from_static("br"));
        }
        Encoding::Gzip => {
            h.insert(header::CONTENT_ENCODING, HeaderValue::from_static("gzip"));
        }
        Encoding::Identity => {}
    }
    r
}

/// The page with a linked moment's frame ([`linked`]), drawn the first time
/// it is asked for (the requests that come meanwhile wait for that drawing);
/// `None` for the page as built (the address names no moment, or the moment
/// cannot be drawn: the page then says why itself).
async fn linked_page(s: &Arc<Shared>, index: &Asset, query: &str) -> Option<Arc<Asset>> {
    let (key, link) = linked::moment_of(query)?;
    let slot = s
        .linked
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .slot(&key);
    if let Some(page) = slot.get() {
        return page.clone();
    }
    let (s, raw) = (s.clone(), index.raw.clone());
    let headers = (index.content_type, index.cache_control);
    // A task of its own: a phone that leaves while the moment is drawn must
    // not cancel the drawing the other phones wait for.
    let wait = tokio::spawn(async move {
        let page = slot.get_or_init(|| draw(&s, raw, headers, &key, link));
        page.await.clone()
    });
    wait.await.ok()?
}

/// Draws `link`'s page from `index.html` as built (`raw`, served with
/// `headers`) on a blocking thread once a permit is free. A failure is logged
/// here, once, and kept as `None` like a page, so a class scanning the code
/// does not try again forty times.
async fn draw(
    s: &Arc<Shared>,
    raw: Bytes,
    (content_type, cache_control): (&'static str, &'static str),
    key: &str,
    link: Link,
) -> Option<Arc<Asset>> {
    let permit = s.drawing.clone().acquire_owned().await.ok()?;
    s.drawings.0.fetch_add(1, Ordering::Relaxed);
    let shared = s.clone();
    let drawn = tokio::task::spawn_blocking(move || {
        // Held for as long as the drawing takes a core.
        let _permit = permit;
        let page = linked::asset(&raw, content_type, cache_control, &link);
        shared.drawings.1.fetch_add(1, Ordering::Relaxed);
        page
    })
    .await;
    match drawn {
        Ok(Ok(page)) => Some(Arc::new(page)),
        Ok(Err(why)) => {
            eprintln!("classroom: no first frame for ?{key}: {why}");
            None
        }
        Err(e) => {
            eprintln!("classroom: the first frame for ?{key} failed: {e}");
            None
        }
    }
}

/// A server listening, for the binary and the tests.
pub struct Running {
    /// Where it listens.
    pub addr: SocketAddr,
    /// The state it serves.
    pub shared: Arc<Shared>,
    tasks: Vec<tokio::task::JoinHandle<()>>,
}

impl Running {
    /// Stops serving at once, as a killed process would: the listeners and every
    /// open connection (the phones' streams among them) are dropped.
    pub fn stop(self) {
        for t in self.tasks {
            t.abort();
        }
    }
}

/// How long a client may take to send a request's headers (a connection that
/// dribbles them out is dropped instead of holding a slot).
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);

/// Starts serving `config` on `listeners` (bound already: the first is the
/// students', any other the presenter's loopback).
pub async fn start(
    config: &Config,
    listeners: Vec<tokio::net::TcpListener>,
) -> Result<Running, String> {
    let shared = Shared::new(config)?;
    let addr = listeners
        .first()
        .ok_or("no address to listen on")?
        .local_addr()
        .map_err(|e| e.to_string())?;
    let app = router(shared.clone());
    let mut tasks: Vec<_> = listeners
        .into_iter()
        .map(|l| tokio::spawn(accept_loop(l, app.clone())))
        .collect();
    tasks.push(tokio::spawn(watch_presence(Arc::downgrade(&shared))));
    Ok(Running {
        addr,
        shared,
        tasks,
    })
}

/// Tells the phones when the lecturer goes away (a laptop asleep, a closed
/// lid): checked four times per `away_after`, at least once a second.
async fn watch_presence(shared: std::sync::Weak<Shared>) {
    let every = shared
        .upgrade()
        .map_or(Duration::from_secs(1), |s| s.away_after / 4)
        .min(Duration::from_secs(1));
    let mut tick = tokio::time::interval(every);
    loop {
        tick.tick().await;
        let Some(s) = shared.upgrade() else { return };
        s.check_presence();
    }
}

/// Accepts connections and serves each in a task of a set this loop owns, so
/// aborting the loop drops every connection with it.
async fn accept_loop(listener: tokio::net::TcpListener, app: Router) {
    use hyper_util::rt::{TokioIo, TokioTimer};
    use tower::ServiceExt as _;
    let mut connections = tokio::task::JoinSet::new();
    loop {
        let (stream, peer) = match listener.accept().await {
            Ok(c) => c,
            Err(e) => {
                // Out of file descriptors or the like: wait rather than spin, keep serving.
                eprintln!("classroom: accept: {e}");
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        while connections.try_join_next().is_some() {}
        let _ = stream.set_nodelay(true);
        let app = app.clone();
        connections.spawn(async move {
            let service = hyper::service::service_fn(
                move |mut req: axum::http::Request<hyper::body::Incoming>| {
                    req.extensions_mut().insert(ConnectInfo(peer));
                    app.clone().oneshot(req.map(Body::new))
                },
            );
            let _ = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(HEADER_TIMEOUT)
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
    }
}
