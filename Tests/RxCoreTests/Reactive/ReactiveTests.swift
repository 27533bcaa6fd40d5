import Foundation
import RxCore
import Testing

private final class Thermostat: ReactiveCompatible {
    var temperature = 0
}

extension Reactive where Base: Thermostat {
    fileprivate var doubledTemperature: Binder<Int> {
        Binder(base, scheduler: CurrentThreadScheduler.instance) { thermostat, value in
            thermostat.temperature = value * 2
        }
    }

    fileprivate static var kind: String { "thermostat" }
}

extension RxCoreTests {
    @Suite("Reactive")
    struct ReactiveTests {
        @Test("A reactive-compatible type exposes its extensions through rx, on instances and on the type")
        func extensionsThroughRx() {
            let thermostat = Thermostat()
            #expect(thermostat.rx.base === thermostat)
            #expect(Thermostat.rx.kind == "thermostat")
            let subscription = Observable.of(1, 2).bind(to: thermostat.rx.doubledTemperature)
            #expect(thermostat.temperature == 4)
            subscription.dispose()
        }

        @Test("Reactive can be created directly and NSObject subclasses are reactive-compatible")
        func directCreationAndNSObject() {
            let reactive = Reactive(5)
            #expect(reactive.base == 5)
            let object = NSObject()
            #expect(object.rx.base === object)
        }
    }
}
