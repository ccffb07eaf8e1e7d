//! The error every model returns for a parameter outside its valid range.

/// A model parameter is outside its valid range. `field` is the parameter's path inside the
/// model's configuration (the scenario layer prefixes it with the model's own path).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {message}")]
pub struct ConfigError {
    /// Dotted path of the parameter, e.g. `peak` or, once prefixed, `hardware.nvme.peak`.
    pub field: String,
    /// What is wrong, with the value and the valid range (e.g. `"8 is out of range; expected 1..=64"`).
    pub message: String,
}

impl ConfigError {
    /// An error for parameter `field` (a path relative to the model's configuration).
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> Self {
        ConfigError { field: field.into(), message: message.into() }
    }

    /// Prefixes the field path, e.g. `peak` → `hardware.nvme.peak`.
    pub fn within(mut self, parent: &str) -> Self {
        self.field = format!("{parent}.{}", self.field);
        self
    }
}
