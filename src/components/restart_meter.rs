//! The restart strategy counted where a class watches the run: the count against
//! the strategy's limit (`重启 2/3` / `restart 2 of 3`), beside the clock and on the
//! coordinator strip, and for the failure-rate strategy its window as a band that
//! slides along the scrubber over the failures it counts. Every number is the
//! engine's ([`engine::view::restarts::RestartView`]); nothing here re-applies a
//! strategy.

use engine::view::restarts::{RestartKind, RestartView};
use yew::prelude::*;

use crate::hooks::use_lang;
use crate::i18n::{Lang, Msg};

/// The count said in `lang`: `重启 2/3` (fixed delay, none), `1500 ms 内失败 2/2`
/// (failure rate), `重启 3 次（自上次重置）· 下次延迟 400 ms` (exponential delay).
pub fn count_text(lang: Lang, v: &RestartView) -> String {
    let n = v.count.to_string();
    let limit = v.limit.map(|l| l.to_string());
    match (v.kind, limit) {
        (RestartKind::FailureRate, Some(limit)) => lang
            .t(Msg::RestartWindowCount)
            .replace("{n}", &n)
            .replace("{limit}", &limit)
            .replace("{window}", &v.window_ms.unwrap_or(0).to_string()),
        (RestartKind::ExponentialDelay, limit) => {
            let delay = v.next_delay_ms.unwrap_or(0).to_string();
            match limit {
                Some(limit) => lang
                    .t(Msg::RestartExponentialCount)
                    .replace("{limit}", &limit),
                None => lang.t(Msg::RestartExponentialUnlimited).to_string(),
            }
            .replace("{n}", &n)
            .replace("{ms}", &delay)
        }
        (_, limit) => lang
            .t(Msg::RestartCount)
            .replace("{n}", &n)
            .replace("{limit}", limit.as_deref().unwrap_or("∞")),
    }
}

/// Whether the count has reached the limit (the next failure is fatal, or the
/// failure past it was).
pub fn at_limit(v: &RestartView) -> bool {
    v.limit.is_some_and(|l| v.count >= l)
}

/// The failure-rate window `(now − window, now]` on a scrubber that spans
/// `origin..horizon`: `(left %, width %)`, clipped to the scrubber; `None` for
/// another strategy.
pub fn band(v: &RestartView, now: u64, origin: u64, horizon: u64) -> Option<(f64, f64)> {
    let window = v.window_ms.filter(|_| v.kind == RestartKind::FailureRate)?;
    let horizon = horizon.max(origin + 1);
    let span = (horizon - origin) as f64;
    let pct = |t: u64| (t.saturating_sub(origin) as f64 / span * 100.0).clamp(0.0, 100.0);
    let (left, right) = (pct(now.saturating_sub(window)), pct(now));
    Some((left, right - left))
}

/// Properties of [`RestartCount`].
#[derive(Properties, PartialEq)]
pub struct RestartCountProps {
    /// The engine's count now.
    pub view: RestartView,
    /// Extra class (where it sits: the transport bar or the coordinator strip).
    #[prop_or_default]
    pub class: Classes,
}

/// The count as a small badge; `data-count` / `data-limit` carry the engine's
/// numbers for the page's checks.
#[component]
pub fn RestartCount(props: &RestartCountProps) -> Html {
    let lang = use_lang().lang;
    let v = &props.view;
    let class = classes!(
        "restart-count",
        at_limit(v).then_some("restart-count--limit"),
        props.class.clone()
    );
    html! {
        <span {class} title={lang.t(Msg::RestartCountTitle)}
              data-count={v.count.to_string()} data-limit={v.limit.map(|l| l.to_string())}>
            <span aria-hidden="true">{ "↻ " }</span>{ count_text(lang, v) }
        </span>
    }
}

/// Properties of [`RestartBand`].
#[derive(Properties, PartialEq)]
pub struct RestartBandProps {
    /// The engine's count now.
    pub view: RestartView,
    /// Simulated time now.
    pub now: u64,
    /// The scrubber's left end.
    pub origin: u64,
    /// The scrubber's right end.
    pub horizon: u64,
}

/// The failure-rate window over the scrubber's markers; nothing for another
/// strategy.
#[component]
pub fn RestartBand(props: &RestartBandProps) -> Html {
    let lang = use_lang().lang;
    let Some((left, width)) = band(&props.view, props.now, props.origin, props.horizon) else {
        return html! {};
    };
    let window = props.view.window_ms.unwrap_or(0);
    let label = lang
        .t(Msg::RestartWindowBand)
        .replace("{from}", &props.now.saturating_sub(window).to_string())
        .replace("{to}", &props.now.to_string())
        .replace("{n}", &props.view.count.to_string());
    html! {
        <div class="restart-band" aria-hidden="true">
            <div class={classes!("restart-band__window", at_limit(&props.view).then_some("restart-band__window--limit"))}
                 style={format!("left: {left:.2}%; width: {width:.2}%")} title={label}
                 data-counted={props.view.counted.iter().map(u64::to_string).collect::<Vec<_>>().join(",")}>
            </div>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view(kind: RestartKind, count: u32, limit: Option<u32>) -> RestartView {
        RestartView {
            kind,
            count,
            limit,
            window_ms: (kind == RestartKind::FailureRate).then_some(1500),
            counted: Vec::new(),
            next_delay_ms: (kind == RestartKind::ExponentialDelay).then_some(400),
        }
    }

    #[test]
    fn the_count_is_said_in_both_languages() {
        let fixed = view(RestartKind::FixedDelay, 2, Some(3));
        assert_eq!(count_text(Lang::Zh, &fixed), "重启 2/3");
        assert_eq!(count_text(Lang::En, &fixed), "restart 2 of 3");
        let rate = view(RestartKind::FailureRate, 2, Some(2));
        assert!(count_text(Lang::En, &rate).contains("1500 ms"));
        assert!(count_text(Lang::Zh, &rate).contains("2/2"));
        let exp = view(RestartKind::ExponentialDelay, 3, None);
        for lang in Lang::ALL {
            let t = count_text(lang, &exp);
            assert!(t.contains('3') && t.contains("400 ms"), "{t}");
        }
        assert!(at_limit(&rate) && !at_limit(&fixed) && !at_limit(&exp));
    }

    /// The band spans the window ending now, clipped at the scrubber's start.
    #[test]
    fn the_band_slides_with_now() {
        let rate = view(RestartKind::FailureRate, 1, Some(2));
        let (l, w) = band(&rate, 3000, 0, 6000).unwrap();
        assert!((l - 25.0).abs() < 1e-9 && (w - 25.0).abs() < 1e-9);
        let (l, w) = band(&rate, 500, 0, 6000).unwrap();
        assert!(l == 0.0 && (w - 500.0 / 60.0).abs() < 1e-9);
        assert!(band(&view(RestartKind::FixedDelay, 1, Some(2)), 3000, 0, 6000).is_none());
    }
}
