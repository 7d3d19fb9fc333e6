#![cfg(target_arch = "wasm32")]
//! Browser tests of the presenter's messages over a real `BroadcastChannel`
//! (two ends in one page, as the presenter window and the projector's window
//! are two ends of one origin) and of a class plan's file and link codecs in
//! the page's own wasm: what one end posts, the other reads back equal; a
//! malformed message arrives as an error naming the field.

use std::cell::RefCell;
use std::rc::Rc;

use checkpoint_lab::presenter::channel::{self, Channel, Message, Moment};
use checkpoint_lab::presenter::plan::{self, Item, Plan};
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;
use yew::Callback;

wasm_bindgen_test_configure!(run_in_browser);

/// Resolves after `ms` milliseconds (a message event is a task away).
async fn later(ms: i32) {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        web_sys::window()
            .unwrap()
            .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms)
            .unwrap();
    });
    JsFuture::from(promise).await.unwrap();
}

fn moment() -> Moment {
    Moment {
        lesson: "barrier-alignment".into(),
        seed: 3,
        mode: "aligned".into(),
        interventions: vec![],
        step: Some(28),
        tour_step: Some(1),
        playing: false,
        speed: 2,
    }
}

#[wasm_bindgen_test]
async fn a_moment_posted_at_one_end_arrives_equal_at_the_other() {
    let got = Rc::new(RefCell::new(Vec::new()));
    let sink = got.clone();
    let receiver = Channel::open(Callback::from(move |m| sink.borrow_mut().push(m))).unwrap();
    let sender = Channel::open(Callback::from(|_| {})).unwrap();
    sender.post(&Message::Hello);
    sender.post(&Message::Moment(moment()));
    sender.post(&Message::Bye);
    later(100).await;
    assert_eq!(
        *got.borrow(),
        vec![
            Ok(Message::Hello),
            Ok(Message::Moment(moment())),
            Ok(Message::Bye)
        ]
    );
    drop(receiver);
}

#[wasm_bindgen_test]
async fn a_malformed_message_arrives_as_an_error_naming_the_field() {
    let got = Rc::new(RefCell::new(Vec::new()));
    let sink = got.clone();
    let _receiver = Channel::open(Callback::from(move |m| sink.borrow_mut().push(m))).unwrap();
    let raw = web_sys::BroadcastChannel::new(channel::CHANNEL).unwrap();
    let mut bad = serde_json::to_value(Message::Moment(moment())).unwrap();
    bad["moment"]["mode"] = "sideways".into();
    raw.post_message(&bad.to_string().into()).unwrap();
    raw.post_message(&wasm_bindgen::JsValue::from_f64(7.0))
        .unwrap();
    later(100).await;
    let got = got.borrow();
    assert_eq!(got.len(), 2, "{got:?}");
    assert!(
        matches!(&got[0], Err(e) if e.0.contains("moment.mode")),
        "{got:?}"
    );
    assert!(
        matches!(&got[1], Err(e) if e.0.contains("not text")),
        "{got:?}"
    );
    raw.close();
}

#[wasm_bindgen_test]
fn a_plan_round_trips_and_a_bad_one_names_the_field() {
    let p = Plan {
        title: "Thursday".into(),
        items: vec![
            Item {
                lesson: "pv-count".into(),
                minutes: 5,
                steps: vec![],
            },
            Item {
                lesson: "odd-even-sum".into(),
                minutes: 10,
                steps: vec![1, 3],
            },
        ],
    };
    assert_eq!(Plan::parse(&p.to_json()), Ok(p.clone()));
    assert_eq!(
        plan::decode_link(&plan::encode_link(&p)).unwrap().items,
        p.items
    );
    let e = plan::decode_link("pv-count.5~odd-even-sum.10.1-30").unwrap_err();
    assert!(e.0.contains("items[1].steps[1]"), "{e}");
}
