// swift-tools-version: 6.2
//
// Interception: an Objective-C-style object runtime and message-interception engine in C, with
// Swift bindings and an RxSwift-compatible Observable core. See README.md and
// docs/ARCHITECTURE.md.
//
// Tools version 6.2: the sources use `SendableMetatype`, which Swift 6.2 introduced; this is the
// real minimum (the README says the same).
//
// Build settings, and why:
// - No unsafe build flags anywhere: they would make the package unusable as a dependency. Warning
//   flags for the C sources (-Wall -Wextra -Werror) are applied by `.ci/run`'s lint step instead.
// - libffi is the only dependency outside the toolchain. It is declared as a system-library
//   target (`CFFI`) found through pkg-config, with the Debian package that provides it.
//   `ffi.h` is included only by the C runtime's implementation files, never by a public header.
// - C is compiled as gnu11 (C11 atomics plus GNU statement expressions used by the send macros).
import PackageDescription

let package = Package(
    name: "Interception",
    products: [
        .library(name: "CInterception", targets: ["CInterception"]),
        .library(name: "RxCore", targets: ["RxCore"]),
        .library(name: "RxFoundation", targets: ["RxFoundation"]),
        .library(name: "Interception", targets: ["Interception"]),
        .executable(name: "interception-demo", targets: ["interception-demo"]),
        .executable(name: "interception-bench", targets: ["interception-bench"]),
    ],
    targets: [
        .systemLibrary(
            name: "CFFI",
            path: "CSources/CFFI",
            pkgConfig: "libffi",
            providers: [.apt(["libffi-dev"])]
        ),
        .target(
            name: "CInterception",
            dependencies: ["CFFI"],
            path: "CSources/CInterception",
            exclude: [
                "README.md", "support/README.md", "types/README.md", "runtime/README.md",
                "ffi/README.md", "engine/README.md", "engine/tools",
            ],
            // Public headers live in include/interception/ (installed as <interception/…>); the
            // runtime's own files include them by name. include/module.modulemap makes the Swift
            // module: the umbrella header plus ic_bindings.h, which C users include explicitly.
            cSettings: [
                .define("_GNU_SOURCE"),
                .headerSearchPath("include/interception"),
            ]
        ),
        // TRACE_RESOURCES turns on RxCore's debug resource counter (`Resources.total`), which the
        // RxCore tests check after every test; release builds do not pay for it.
        .target(
            name: "RxCore",
            path: "Sources/RxCore",
            swiftSettings: [.define("TRACE_RESOURCES", .when(configuration: .debug))]
        ),
        // Foundation bindings of RxCore (NotificationCenter, URLSession), apart so that RxCore
        // stays Foundation-light.
        .target(
            name: "RxFoundation",
            dependencies: ["RxCore"],
            path: "Sources/RxFoundation"
        ),
        .target(
            name: "Interception",
            dependencies: ["CInterception", "RxCore"],
            path: "Sources/Interception"
        ),
        .executableTarget(
            name: "interception-demo",
            dependencies: ["Interception", "CInterception"],
            path: "Sources/interception-demo"
        ),
        // The benchmark binary: C hot loops and an interposed allocation counter in
        // CInterceptionBench (linked only into the benchmark), the driver in Swift.
        .target(
            name: "CInterceptionBench",
            dependencies: ["CInterception", "CFFI"],
            path: "Benchmarks/CInterceptionBench"
        ),
        .executableTarget(
            name: "interception-bench",
            dependencies: ["Interception", "CInterceptionBench"],
            path: "Benchmarks/interception-bench"
        ),
        // C classes used by the tests (defined in C, exercised from Swift Testing suites).
        .target(
            name: "CInterceptionTestSupport",
            dependencies: ["CInterception"],
            path: "Tests/CInterceptionTestSupport"
        ),
        .testTarget(
            name: "CInterceptionTests",
            dependencies: ["CInterception", "CInterceptionTestSupport"],
            path: "Tests/CInterceptionTests"
        ),
        .testTarget(
            name: "RxFoundationTests",
            dependencies: ["RxFoundation", "RxCore"],
            path: "Tests/RxFoundationTests"
        ),
        .testTarget(
            name: "RxCoreTests",
            dependencies: ["RxCore"],
            path: "Tests/RxCoreTests",
            swiftSettings: [.define("TRACE_RESOURCES", .when(configuration: .debug))]
        ),
        // Every Swift example of the README and the DocC catalogs, generated into one file by
        // scripts/doc-examples/generate.py and compiled here, apart from the other tests so that
        // the examples' names (Counter, Point, ...) cannot clash with theirs.
        .testTarget(
            name: "DocExampleTests",
            dependencies: ["Interception", "RxFoundation"],
            path: "Tests/DocExampleTests"
        ),
        .testTarget(
            name: "InterceptionTests",
            dependencies: ["Interception", "CInterception", "CInterceptionTestSupport"],
            path: "Tests/InterceptionTests"
        ),
    ],
    swiftLanguageModes: [.v6],
    cLanguageStandard: .gnu11
)
