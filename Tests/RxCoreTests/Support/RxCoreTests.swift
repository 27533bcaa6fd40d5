import RxCore
import Testing

/// The parent of every RxCore suite.
///
/// Serialized, because each test checks that `Resources.total` returns to its starting value (see
/// ``ResourceCheck``), which only means something when no other RxCore test runs at the same time.
/// Every suite of this target is nested in it (`extension RxCoreTests { @Suite struct ... }`).
@Suite(.serialized, .checksResources)
struct RxCoreTests {}
