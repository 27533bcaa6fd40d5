// interception-bench: every path measured in one process, as ns/op medians of repetitions,
// with ratios to the direct call and to an unintercepted send taken within the same run, and
// heap allocations per operation counted by an interposed allocator.
//
//   swift run -c release interception-bench [--quick] [--interleave] [--json FILE] [--filter SUBSTRING[,SUBSTRING…]]
//
// Hot loops live in the language whose path they measure: C paths in CInterceptionBench
// (cases.c), Swift paths in this target. Each loop checks its results; a wrong result fails the
// run. Nothing here asserts on time. --interleave measures the cases in rounds (one repetition
// of each per round) instead of in turn, which keeps ratios steady on a shared, noisy machine.
import CInterceptionBench
import Foundation

struct Options {
    var quick = false
    var interleave = false
    var jsonPath: String?
    var filter: String?

    init(_ arguments: [String]) {
        var it = arguments.dropFirst().makeIterator()
        while let argument = it.next() {
            switch argument {
            case "--quick": quick = true
            case "--interleave": interleave = true
            case "--json": jsonPath = it.next()
            case "--filter": filter = it.next()
            case "--help", "-h":
                print(
                    "usage: interception-bench [--quick] [--interleave] [--json FILE]"
                        + " [--filter SUBSTRING[,SUBSTRING…]]")
                exit(0)
            default:
                FileHandle.standardError.write("unknown argument \(argument)\n".data(using: .utf8)!)
                exit(2)
            }
        }
    }
}

/// How many operations one repetition of a case runs, and how many repetitions.
struct Plan {
    var ops: UInt64
    var reps: Int
}

/// A benchmark case: a name, and a way to run `ops` operations returning elapsed ns (negative
/// when a result was wrong).
struct BenchCase {
    var name: String
    var description: String
    /// Relative weight: cases whose operations are expensive run fewer of them.
    var scale: Double = 1
    var prepare: () -> Bool
    var run: (UInt64) -> Double
    /// Allocations and bytes inside the last run's timed section, when the case's own loop
    /// reports them (the C cases do); otherwise the driver counts around the whole run.
    var timedAllocations: (() -> (UInt64, UInt64))? = nil
}

struct Result {
    var name: String
    var description: String
    var median: Double
    var min: Double
    var max: Double
    var reps: Int
    var ops: UInt64
    var allocsPerOp: Double
    var bytesPerOp: Double
}

func cCases() -> [BenchCase] {
    (0..<icb_case_count()).map { i in
        let c = icb_case_at(i)!
        let name = String(cString: icb_case_name(c))
        let expensive = name.hasPrefix("intercept_")
        return BenchCase(
            name: name, description: String(cString: icb_case_description(c)),
            scale: expensive ? 0.001 : 1,
            prepare: { icb_case_prepare(c) == 0 },
            run: { icb_case_run(c, $0) },
            timedAllocations: { (icb_last_run_allocations(), icb_last_run_bytes()) })
    }
}

/// One case on its way through a run: its plan, and what its timed repetitions measured.
struct Measurement {
    var bench: BenchCase
    var ops: UInt64
    var times: [Double] = []
    var allocationCount: UInt64 = 0
    var byteCount: UInt64 = 0

    init(_ bench: BenchCase, quick: Bool) {
        self.bench = bench
        let baseOps: Double = quick ? 20_000 : 2_000_000
        ops = UInt64(max(10, baseOps * bench.scale))
    }

    /// Runs the case untimed for at least `minimumNs` (and at least once), so that the core's
    /// clock, caches and branch predictors are in the state this case's loop leaves them,
    /// whatever ran before it. False when a result was wrong.
    func warmUp(minimumNs: Double) -> Bool {
        var warmedNs = 0.0
        var warmUps = 0
        repeat {
            let ns = bench.run(ops / 4 + 1)
            guard ns >= 0 else { return false }
            warmedNs += ns
            warmUps += 1
        } while warmedNs < minimumNs && warmUps < 1_000
        return true
    }

    /// One timed repetition of `ops` operations. False when a result was wrong.
    mutating func timedRepetition() -> Bool {
        let allocationsBefore = icb_allocation_count()
        let bytesBefore = icb_allocated_bytes()
        let ns = bench.run(ops)
        guard ns >= 0 else { return false }
        times.append(ns / Double(ops))
        if let timed = bench.timedAllocations {
            let (count, bytes) = timed()
            allocationCount += count
            byteCount += bytes
        } else {
            allocationCount += icb_allocation_count() - allocationsBefore
            byteCount += icb_allocated_bytes() - bytesBefore
        }
        return true
    }

    var result: Result {
        let totalOps = Double(ops) * Double(times.count)
        let sorted = times.sorted()
        return Result(
            name: bench.name, description: bench.description, median: sorted[sorted.count / 2],
            min: sorted.first!, max: sorted.last!, reps: sorted.count, ops: ops,
            allocsPerOp: Double(allocationCount) / totalOps, bytesPerOp: Double(byteCount) / totalOps)
    }
}

/// The warm-up before a case's repetitions: 50 ms (5 ms with --quick). A single short warm-up
/// let a case measured right after an expensive one (or first in a filtered run) differ from
/// the same case in a full run.
func warmUpNs(quick: Bool) -> Double { quick ? 5e6 : 50e6 }

func repetitions(quick: Bool) -> Int { quick ? 3 : 15 }

/// Measures each case in turn: its warm-up, then all its repetitions. A load change on the
/// machine between two cases shifts their ratio.
func measureInTurn(_ cases: [BenchCase], quick: Bool) -> [Measurement?] {
    cases.map { bench in
        guard bench.prepare() else { return nil }
        var measurement = Measurement(bench, quick: quick)
        guard measurement.warmUp(minimumNs: warmUpNs(quick: quick)) else { return nil }
        for _ in 0..<repetitions(quick: quick) {
            guard measurement.timedRepetition() else { return nil }
        }
        return measurement
    }
}

/// Measures the cases in rounds: every case is prepared and warmed up first, then each round
/// runs one repetition of every case, each after a short warm-up of its own (a quarter of a
/// repetition, so it does not start in the previous case's state). A load change on a shared
/// machine then lands in the same rounds of every case, and the medians' ratios stay close to
/// what a quiet machine gives, where cases measured in turn can differ by 2× between runs.
func measureInterleaved(_ cases: [BenchCase], quick: Bool) -> [Measurement?] {
    var measurements: [Measurement?] = cases.map { bench in
        guard bench.prepare() else { return nil }
        let measurement = Measurement(bench, quick: quick)
        return measurement.warmUp(minimumNs: warmUpNs(quick: quick)) ? measurement : nil
    }
    for _ in 0..<repetitions(quick: quick) {
        for index in measurements.indices {
            guard var measurement = measurements[index] else { continue }
            measurements[index] = nil
            if measurement.warmUp(minimumNs: 0), measurement.timedRepetition() {
                measurements[index] = measurement
            }
        }
    }
    return measurements
}

func machineDescription() -> [String: Any] {
    var cpu = "unknown"
    if let info = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
        let line = info.split(separator: "\n").first(where: { $0.hasPrefix("model name") })
    {
        cpu =
            line.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) }
            ?? cpu
    }
    #if DEBUG
        let configuration = "debug"
    #else
        let configuration = "release"
    #endif
    return [
        "name": "machine",
        "cpu": cpu,
        "cores": ProcessInfo.processInfo.activeProcessorCount,
        "memory_bytes": ProcessInfo.processInfo.physicalMemory,
        "os": ProcessInfo.processInfo.operatingSystemVersionString,
        "build_configuration": configuration,
        "date": ISO8601DateFormatter().string(from: Date()),
    ]
}

func format(_ value: Double, width: Int, decimals: Int = 2) -> String {
    let text = String(format: "%.\(decimals)f", value)
    return String(repeating: " ", count: max(0, width - text.count)) + text
}

func pad(_ text: String, _ width: Int) -> String {
    text + String(repeating: " ", count: max(0, width - text.count))
}

// ---------------------------------------------------------------------------------------------

let options = Options(CommandLine.arguments)
var cases = cCases() + swiftCases() + rxCoreCases() + delegateProxyCases() + propertyCases()
if let filter = options.filter {
    // A case runs if its name contains any of the comma-separated substrings (so the cases one
    // change touches and their baselines can share a run). The two baselines always run: ratios
    // are taken within one run.
    let parts = filter.split(separator: ",").map(String.init)
    cases = cases.filter { bench in
        parts.contains { bench.name.contains($0) } || bench.name == "direct_call"
            || bench.name == "send_unintercepted"
    }
}

var results: [Result] = []
var failed: [String] = []
let measurements =
    options.interleave
    ? measureInterleaved(cases, quick: options.quick) : measureInTurn(cases, quick: options.quick)
for (bench, measurement) in zip(cases, measurements) {
    if let measurement {
        results.append(measurement.result)
    } else {
        failed.append(bench.name)
        FileHandle.standardError.write(
            "interception-bench: case \(bench.name) failed its checks\n".data(using: .utf8)!)
    }
}

let direct = results.first { $0.name == "direct_call" }?.median ?? .nan
let send = results.first { $0.name == "send_unintercepted" }?.median ?? .nan
let machine = machineDescription()
print(
    "interception-bench (\(machine["build_configuration"]!), \(options.quick ? "quick" : "full")\(options.interleave ? ", interleaved" : "")) on \(machine["cpu"]!), \(machine["cores"]!) cores"
)
print(pad("case", 36) + "   ns/op      min      max  ×direct    ×send  allocs/op")
for r in results {
    print(
        pad(r.name, 36) + format(r.median, width: 8) + format(r.min, width: 9) + format(r.max, width: 9)
            + format(r.median / direct, width: 9) + format(r.median / send, width: 9)
            + format(r.allocsPerOp, width: 11, decimals: 3))
}
if let next = results.first(where: { $0.name == "intercept_next_instance" }) {
    print("memory allocated per further intercepted instance: \(Int(next.bytesPerOp)) bytes")
}

if let path = options.jsonPath {
    var objects: [[String: Any]] = results.map {
        [
            "name": $0.name, "description": $0.description, "ns_per_op": $0.median, "ns_min": $0.min,
            "ns_max": $0.max,
            "reps": $0.reps, "ops_per_rep": $0.ops, "allocs_per_op": $0.allocsPerOp,
            "bytes_per_op": $0.bytesPerOp,
        ]
    }
    var run = machine
    run["interleaved"] = options.interleave
    objects.append(run)
    do {
        let data = try JSONSerialization.data(
            withJSONObject: objects, options: [.prettyPrinted, .sortedKeys])
        try data.write(to: URL(fileURLWithPath: path))
    } catch {
        FileHandle.standardError.write(
            "interception-bench: cannot write \(path): \(error)\n".data(using: .utf8)!)
        exit(1)
    }
}
exit(failed.isEmpty ? 0 : 1)
