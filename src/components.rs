//! The page's regions, one file each.
//!
//! # Layout
//! - [`masthead`]: logo, title and the 中文 / English switch.
//! - [`toolbar`]: the transport bar (scenario, mode, seed, interventions, twin view, step, play, speed, scrubber).
//! - [`stage`]: the SVG job graph drawn from a [`crate::scene::Scene`], banners, the state popover.
//! - [`token_layer`]: the moving records and barriers, painted on a canvas over the stage.
//! - [`legend`]: what each colour and shape on the stage means.
//! - [`side_panel`]: tabs for the coordinator, storage, sink and narration.
//! - [`task_popover`]: a subtask's state (offsets, keyed state, transactions) and its crash button.
//! - [`coordinator_panel`], [`storage_panel`], [`sink_panel`], [`narration_panel`], [`bench_panel`]: the side panel's tabs.
//! - [`shortcuts`]: the `?` overlay listing keyboard shortcuts.
//! - [`icons`]: inline SVG icons (no icon font, no CDN).

pub mod bench_panel;
pub mod coordinator_panel;
pub mod icons;
pub mod legend;
pub mod masthead;
pub mod narration_panel;
pub mod shortcuts;
pub mod side_panel;
pub mod sink_panel;
pub mod stage;
pub mod storage_panel;
pub mod task_popover;
pub mod token_layer;
pub mod toolbar;

pub use bench_panel::BenchPanel;
pub use coordinator_panel::CoordinatorPanel;
pub use legend::Legend;
pub use masthead::{LangSwitch, Masthead};
pub use narration_panel::{LiveRegion, NarrationPanel};
pub use shortcuts::ShortcutsOverlay;
pub use side_panel::SidePanel;
pub use sink_panel::SinkPanel;
pub use stage::Stage;
pub use storage_panel::StoragePanel;
pub use task_popover::TaskPopover;
pub use toolbar::Toolbar;
