//! A linked moment's first frame, drawn by the server: a QR code on a slide
//! (`/?scenario=savepoint-rescale&t=2040`) opens on that lesson's graph at that
//! moment while the wasm is still on its way, as the default lesson opens on
//! the frame the build wrote into `index.html`. The default lesson is drawn
//! again too: a student's page on the server has the students' bar ("following
//! the lecturer") above the stage, which the build's frame cannot know of.
//!
//! The drawing is the page's own (`checkpoint_lab::first_frame`: the stage's
//! still, laid out by the page's scene code and serialised by Yew's server-side
//! renderer), from the lessons built into this binary, at the moment the page
//! itself would open (`checkpoint_lab::playback::Link`). The server swaps it
//! for the build's frame between the `<!-- first-frame -->` marks of
//! `index.html` and marks `<html data-linked-frame>`, which tells the head's
//! script (scripts/first-frame.cjs) that the frame matches the address.
//!
//! Only an address made of the moment's own parameters (`lang`, `scenario`,
//! `seed`, `mode`, `t`, `step`), each once, readable and short, and naming a
//! built-in lesson gets a frame; anything else (a tab, a tour step, a shared
//! run in the fragment, which the server never sees and the head's script
//! checks) gets the page as built, whose frame stays hidden behind the
//! "loading" note. Pages are cached by the moment they draw, so forty phones
//! scanning one code cost one drawing.

use std::collections::VecDeque;
use std::sync::Arc;

use axum::body::Bytes;
use checkpoint_lab::first_frame::{self, FirstMoment};
use checkpoint_lab::i18n::Lang;
use checkpoint_lab::playback::{link, Link, DEFAULT_SCENARIO};

use crate::site::{self, Asset};

/// Moments kept drawn: a class's slides name a handful.
pub const CACHED: usize = 32;

/// The longest value a parameter may have (a lesson's name, a number).
const MAX_VALUE: usize = 64;

/// The moment a query string names (the default lesson's start for none), in
/// a canonical form (its cache key), if the server should draw it; `None` for
/// the page as built.
pub fn moment_of(query: &str) -> Option<(String, Link)> {
    let mut pairs: Vec<(String, String)> = Vec::new();
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        let value = site::percent_decode(&value.replace('+', " "))?;
        if !link::PARAMS.contains(&key) || value.len() > MAX_VALUE {
            return None;
        }
        if pairs.iter().any(|(k, _)| k == key) {
            return None;
        }
        pairs.push((key.to_string(), value));
    }
    let get = |name: &str| {
        pairs
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.clone())
    };
    let link = Link::from_query(get);
    // Every value the page would read must read: otherwise the page decides.
    let numbers_read = [("seed", link.seed), ("t", link.t), ("step", link.step)]
        .iter()
        .all(|(name, parsed)| get(name).is_none() == parsed.is_none());
    if !numbers_read || get("mode").is_some() != link.mode.is_some() {
        return None;
    }
    let lesson = link.scenario.as_deref().unwrap_or(DEFAULT_SCENARIO);
    engine::runner::builtin(lesson)?;
    pairs.retain(|(k, _)| k != "lang");
    pairs.sort();
    let key = pairs
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join("&");
    Some((key, link))
}

/// `index.html` with the moment's frame in every language in place of the
/// build's, or why it has none (the lesson does not load, or the page has no
/// frame marks: a debug build).
pub fn page(index: &str, link: &Link) -> Result<String, String> {
    const OPEN: &str = "<!-- first-frame -->";
    const CLOSE: &str = "<!-- /first-frame -->";
    let (start, end) = match (index.find(OPEN), index.find(CLOSE)) {
        (Some(s), Some(e)) if s < e => (s + OPEN.len(), e),
        _ => return Err("index.html has no first frame (not a release build)".into()),
    };
    let first = std::rc::Rc::new(FirstMoment::at(link).map_err(|e| e.to_string())?);
    let frames: String = Lang::ALL
        .iter()
        .map(|lang| first_frame::render_with(&first, *lang, true))
        .collect::<Vec<_>>()
        .join("\n");
    let html = format!("{}{frames}{}", &index[..start], &index[end..]);
    Ok(html.replacen("<html", "<html data-linked-frame", 1))
}

/// A moment's page once drawn, or `None` when it could not be (the page as
/// built is served). Set by the first request for the moment; the requests
/// that come while it is drawn wait on it instead of drawing again.
pub type Slot = Arc<tokio::sync::OnceCell<Option<Arc<Asset>>>>;

/// The moments asked for, newest first, each with its page (drawn or being drawn).
#[derive(Default)]
pub struct Cache {
    pages: VecDeque<(String, Slot)>,
}

impl Cache {
    /// The slot for `key` (an empty one if not kept), made the newest; the
    /// oldest beyond [`CACHED`] is forgotten.
    pub fn slot(&mut self, key: &str) -> Slot {
        let kept = self.pages.iter().position(|(k, _)| k == key);
        let slot = kept
            .and_then(|i| self.pages.remove(i))
            .map_or_else(Slot::default, |(_, slot)| slot);
        self.pages.push_front((key.to_string(), slot.clone()));
        self.pages.truncate(CACHED);
        slot
    }
}

/// The page for `link` as an asset of its own, from `index.html` as built
/// (`raw`) and served with its headers, compressed like the build's files but
/// faster (it is made while a phone waits).
pub fn asset(
    raw: &[u8],
    content_type: &'static str,
    cache_control: &'static str,
    link: &Link,
) -> Result<Asset, String> {
    let text = std::str::from_utf8(raw).map_err(|_| "index.html is not UTF-8".to_string())?;
    let raw = page(text, link)?.into_bytes();
    Ok(Asset {
        br: Some(Bytes::from(site::brotli_at(&raw, 9))),
        gz: Some(Bytes::from(site::gzip_at(&raw, 6))),
        raw: Bytes::from(raw),
        content_type,
        cache_control,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Only the moment's own parameters, once each, readable and naming a
    /// built-in lesson, make a frame; the key ignores the language and order.
    #[test]
    fn which_addresses_get_a_frame() {
        let (key, link) = moment_of("lang=en&t=2040&scenario=savepoint-rescale").unwrap();
        assert_eq!(key, "scenario=savepoint-rescale&t=2040");
        assert_eq!(link.t, Some(2040));
        assert_eq!(
            moment_of("scenario=savepoint-rescale&t=2040&lang=zh")
                .unwrap()
                .0,
            key
        );
        assert_eq!(
            moment_of("lang=en").unwrap(),
            (String::new(), Link::default())
        );
        assert_eq!(moment_of("").unwrap().0, "");
        for plain in [
            "scenario=no-such-lesson&t=5",
            "scenario=savepoint-rescale&tab=storage",
            "scenario=savepoint-rescale&t=soon",
            "scenario=savepoint-rescale&mode=sideways",
            "scenario=savepoint-rescale&t=1&t=2",
            "scenario=%zz",
            &format!("scenario=savepoint-rescale&seed={}", "9".repeat(80)),
        ] {
            assert!(moment_of(plain).is_none(), "{plain}");
        }
        assert!(moment_of(&format!("scenario={DEFAULT_SCENARIO}&t=300")).is_some());
        assert!(moment_of("presenter=1").is_none());
    }

    /// The page keeps everything around the frame and draws the linked
    /// lesson's operators at the moment, in every language.
    #[test]
    fn the_page_draws_the_linked_moment() {
        let index = "<html lang=\"zh-CN\"><head></head><body><div id=\"app\">\n<!-- first-frame --><div>old</div><!-- /first-frame --></div></body></html>";
        let (_, link) = moment_of("scenario=savepoint-rescale&t=2040").unwrap();
        let html = page(index, &link).unwrap();
        assert!(html.starts_with("<html data-linked-frame lang=\"zh-CN\">"));
        assert!(
            !html.contains("old") && html.ends_with("<!-- /first-frame --></div></body></html>")
        );
        assert_eq!(
            html.matches("class=\"app first-frame app--class\"").count(),
            Lang::ALL.len()
        );
        assert!(html.contains("data-first-frame=\"savepoint-rescale\""));
        assert!(
            html.contains("value=\"2040\""),
            "the scrubber at the moment"
        );
        assert_eq!(
            html.matches("class-bar--following").count(),
            Lang::ALL.len()
        );
        assert!(page("<html><body></body></html>", &link).is_err());
    }

    /// The cache keeps the newest [`CACHED`] moments, a failed drawing among them.
    #[test]
    fn the_cache_forgets_the_oldest() {
        let asset = || {
            Arc::new(Asset {
                raw: Bytes::new(),
                br: None,
                gz: None,
                content_type: "text/html",
                cache_control: "no-cache",
            })
        };
        let mut cache = Cache::default();
        cache.slot("0").set(Some(asset())).unwrap();
        cache.slot("1").set(None).unwrap();
        for i in 2..=CACHED {
            cache.slot(&i.to_string()).set(Some(asset())).unwrap();
        }
        assert!(
            matches!(cache.slot("1").get(), Some(None)),
            "a failure is kept"
        );
        assert!(cache.slot(&CACHED.to_string()).get().unwrap().is_some());
        assert!(!cache.slot("0").initialized(), "the oldest is forgotten");
    }
}
