//! "Flink: CheckpointCoordinator.restoreSavepoint · execution.checkpointing.timeout":
//! one small line under a tour step, drill answer or glossary entry naming where
//! what it says about Flink comes from (its `"sources"`, see
//! [`crate::lessons::sources`]). Entries marked `["none"]` show nothing. A long
//! name breaks at its dots and word boundaries ([`crate::drill::breakable`]).

use yew::prelude::*;

use crate::hooks::use_lang;
use crate::lessons::sources::display;
use crate::lessons::wording::t;

/// Properties of [`SourcesLine`].
#[derive(Properties, PartialEq)]
pub struct SourcesLineProps {
    /// The entry's sources, as written in its file.
    pub sources: Vec<String>,
}

/// The sources as one line of code-styled names, or nothing.
#[component]
pub fn SourcesLine(props: &SourcesLineProps) -> Html {
    let lang = use_lang().lang;
    let shown: Vec<String> = props.sources.iter().filter_map(|s| display(s)).collect();
    if shown.is_empty() {
        return Html::default();
    }
    html! {
        <p class="sources-line">
            <span class="sources-line__label">{ t("sources_label", lang) }</span>{ " " }
            { for shown.iter().enumerate().map(|(i, s)| html! {
                <>
                    if i > 0 { { " · " } }
                    <code>{ crate::drill::breakable(s) }</code>
                </>
            }) }
        </p>
    }
}
