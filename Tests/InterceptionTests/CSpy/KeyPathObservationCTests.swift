import CInterception
import CInterceptionTestSupport
import Testing

// Area: property observation in C (ic_observe.h, SPEC 20). Purpose: a C observer of a key path
// gets the old and the new value after every setter call along it, follows the path when an
// intermediate object is replaced, ends when the observed object dies, may remove itself or set
// the key again from its callback, and gets one consistent old/new chain under setters racing on
// several threads. The observers and classes are C (CInterceptionTestSupport/spy.c).

/// Observes `keyPath` of `object` as `type` with a new recorder.
private func observe(
    _ object: OpaquePointer, _ keyPath: String, _ type: String, options: UInt32 = UInt32(IC_OBSERVE_INITIAL)
) throws -> (OpaquePointer, OpaquePointer) {
    let recorder = ict_recorder_create(type)!
    var observation: OpaquePointer?
    let status = ic_object_observe_key_path(
        object, keyPath, type, options, ict_recorder_record, UnsafeMutableRawPointer(recorder),
        ict_recorder_release, &observation)
    try #require(status == IC_OK, "\(String(cString: ic_error_message()))")
    return (try #require(observation), recorder)
}

private func setDouble(_ object: OpaquePointer, _ key: String, _ value: Double) {
    var value = value
    #expect(ic_object_set_value_for_key(object, key, "d", &value, MemoryLayout<Double>.size) == IC_OK)
}

private func setObject(_ object: OpaquePointer, _ key: String, _ value: OpaquePointer?) {
    var value = value
    #expect(ic_object_set_value_for_key(object, key, "@", &value, MemoryLayout<OpaquePointer?>.size) == IC_OK)
}

private func setString(_ object: OpaquePointer, _ key: String, _ value: String) {
    value.withCString { c in
        var pointer: UnsafePointer<CChar>? = c
        #expect(
            ic_object_set_value_for_key(object, key, "*", &pointer, MemoryLayout<UnsafePointer<CChar>?>.size)
                == IC_OK)
    }
}

/// The object `key` of `object` reads, +0 (released at once: for comparisons only).
private func readObject(_ object: OpaquePointer, _ key: String) -> OpaquePointer? {
    var value: OpaquePointer?
    let size = MemoryLayout<OpaquePointer?>.size
    let mark = ic_autorelease_pool_push()  // a weak property's getter parks its value
    #expect(ic_object_copy_value_for_key(object, key, "@", &value, size) == IC_OK)
    if let value { ic_release(value) }
    ic_autorelease_pool_pop(mark)
    return value
}

private func text(_ recorder: OpaquePointer) -> String { String(cString: ict_recorder_text(recorder)) }

@Suite("Key path observation in C (ic_observe.h)")
struct KeyPathObservationCTests {
    @Test("each setter call delivers the old and the new value, the first one on request")
    func oldAndNewValues() throws {
        let account = ict_account_new(10, nil)!
        let (observation, recorder) = try observe(account, "balance", "d")
        ict_account_deposit(account, 25.5)  // deposit: sends setBalance:
        setDouble(account, "balance", 35.5)  // the same value is still a change
        #expect(text(recorder) == "none->10, 10->35.5, 35.5->35.5")
        #expect(ic_key_path_observation_remove(observation) == IC_OK)
        ict_account_deposit(account, 1)
        #expect(ict_recorder_count(recorder) == 3)
        ic_intercept_quiesce()
        #expect(ict_recorder_releases(recorder) == 1)
        #expect(ic_intercept_original_class(account) == ic_object_get_class(account))  // back in its class
        ic_release(account)
        ict_recorder_destroy(recorder)
    }

    @Test("without the initial option the first change's old value is the value at the start")
    func withoutInitial() throws {
        let account = ict_account_new(3, nil)!
        let (observation, recorder) = try observe(account, "balance", "d", options: 0)
        setDouble(account, "balance", 4)
        #expect(text(recorder) == "3->4")
        ic_key_path_observation_remove(observation)
        ic_release(account)
        ic_intercept_quiesce()
        ict_recorder_destroy(recorder)
    }

    @Test("replacing an object along the path re-targets the observation; the old one is no longer watched")
    func retargets() throws {
        let paris = ict_address_new("Paris", 75000)!
        let rome = ict_address_new("Rome", 100)!
        let ann = ict_person_new("Ann", paris)!
        let account = ict_account_new(0, ann)!
        let (observation, recorder) = try observe(account, "owner.address.city", "*")
        setObject(ann, "address", rome)
        setString(paris, "city", "Lyon")  // no longer on the path
        setString(rome, "city", "Milan")
        let bob = ict_person_new("Bob", nil)!
        setObject(account, "owner", bob)  // a NULL object below: no value
        setObject(bob, "address", paris)
        #expect(
            text(recorder)
                == #"none->"Paris", "Paris"->"Rome", "Rome"->"Milan", "Milan"->none, none->"Lyon""#)
        ic_key_path_observation_remove(observation)
        ic_intercept_quiesce()
        #expect(ict_recorder_releases(recorder) == 1)
        for object in [account, ann, bob, paris, rome] { ic_release(object) }
        #expect(ic_object_live_count() >= 0)
        ict_recorder_destroy(recorder)
    }

    @Test("the observed object's death delivers a last change to none and ends the observation")
    func endsWhenTheObjectDies() throws {
        let account = ict_account_new(7, nil)!
        let (observation, recorder) = try observe(account, "balance", "d")
        #expect(ic_key_path_observation_is_active(observation))
        ic_release(account)
        #expect(text(recorder) == "none->7, 7->none")
        #expect(!ic_key_path_observation_is_active(observation))
        #expect(ict_recorder_releases(recorder) == 0)  // until removed
        #expect(ic_key_path_observation_remove(observation) == IC_OK)
        ic_intercept_quiesce()
        #expect(ict_recorder_releases(recorder) == 1)
        ict_recorder_destroy(recorder)
    }

    @Test("an intermediate object is kept while on the path and released when replaced")
    func intermediatesAreRetainedWhileOnThePath() throws {
        let address = ict_address_new("Oslo", 1)!
        let person = ict_person_new("Kari", address)!
        let account = ict_account_new(0, person)!
        let before = ic_object_retain_count(person)
        let (observation, recorder) = try observe(account, "owner.address.zip", "i")
        #expect(ic_object_retain_count(person) == before + 1)
        setObject(account, "owner", nil)
        #expect(ic_object_retain_count(person) == before - 1)  // the account let it go too
        #expect(text(recorder) == "none->1, 1->none")
        ic_key_path_observation_remove(observation)
        for object in [account, person, address] { ic_release(object) }
        ic_intercept_quiesce()
        ict_recorder_destroy(recorder)
    }

    @Test("an intermediate read through a weak property is not kept alive; its death is a change to none")
    func weakIntermediatesAreNotKeptAlive() throws {
        let kari = ict_person_new("Kari", nil)!
        let account = ict_account_new(0, nil)!
        setObject(account, "manager", kari)
        let before = ic_object_retain_count(kari)
        let (observation, recorder) = try observe(account, "manager.name", "*")
        #expect(ic_object_retain_count(kari) == before)
        ic_release(kari)  // the last strong reference: the weak property zeroes
        #expect(readObject(account, "manager") == nil)
        let bob = ict_person_new("Bob", nil)!
        setObject(account, "manager", bob)
        setString(bob, "name", "Rob")
        #expect(text(recorder) == #"none->"Kari", "Kari"->none, none->"Bob", "Bob"->"Rob""#)
        ic_key_path_observation_remove(observation)
        ic_intercept_quiesce()
        #expect(ict_recorder_releases(recorder) == 1)
        for object in [account, bob] { ic_release(object) }
        ict_recorder_destroy(recorder)
    }

    @Test("an object value read through a weak property is held weakly; its death is a change to none")
    func weakValuesAreNotKeptAlive() throws {
        let kari = ict_person_new("Kari", nil)!
        let account = ict_account_new(0, nil)!
        setObject(account, "manager", kari)
        let before = ic_object_retain_count(kari)
        let (observation, recorder) = try observe(account, "manager", "@")
        #expect(ic_object_retain_count(kari) == before)
        ic_release(kari)
        #expect(readObject(account, "manager") == nil)
        #expect(ict_recorder_count(recorder) == 2)
        #expect(text(recorder).hasSuffix(">->nil"))  // the property reads nil
        ic_key_path_observation_remove(observation)
        ic_intercept_quiesce()
        ic_release(account)
        ict_recorder_destroy(recorder)
    }

    @Test("the callback may remove its observation: no call follows, the context is released once")
    func removalFromInsideTheCallback() throws {
        let account = ict_account_new(1, nil)!
        var observation: OpaquePointer?
        let recorder = ict_recorder_create("d")!
        try #require(
            ic_object_observe_key_path(
                account, "balance", "d", 0, ict_recorder_record, UnsafeMutableRawPointer(recorder),
                ict_recorder_release, &observation) == IC_OK)
        ict_recorder_remove_inside(recorder, &observation)
        setDouble(account, "balance", 2)
        setDouble(account, "balance", 3)
        #expect(text(recorder) == "1->2")
        ic_intercept_quiesce()
        #expect(ict_recorder_releases(recorder) == 1)
        ic_release(account)
        ict_recorder_destroy(recorder)
    }

    @Test("a set made from inside the callback is delivered after it returns, in order")
    func changeFromInsideTheCallback() throws {
        let account = ict_account_new(1, nil)!
        let (observation, recorder) = try observe(account, "balance", "d", options: 0)
        ict_recorder_set_inside(recorder, account, "balance", 100)
        setDouble(account, "balance", 2)
        #expect(text(recorder) == "1->2, 2->100")
        #expect(ict_recorder_breaks(recorder) == 0)
        ic_key_path_observation_remove(observation)
        ic_release(account)
        ic_intercept_quiesce()
        ict_recorder_destroy(recorder)
    }

    @Test("bad requests are refused with the error that names them")
    func badRequests() throws {
        let account = ict_account_new(1, nil)!
        let recorder = ict_recorder_create("d")!
        let context = UnsafeMutableRawPointer(recorder)
        var observation: OpaquePointer?
        func attempt(_ path: String, _ type: String) -> ic_status {
            ic_object_observe_key_path(
                account, path, type, 0, ict_recorder_record, context, nil, &observation)
        }
        #expect(attempt("nothing", "d") == IC_ERR_UNKNOWN_KEY)
        #expect(attempt("balance", "i") == IC_ERR_SIGNATURE_MISMATCH)
        #expect(attempt("balance.x", "d") == IC_ERR_SIGNATURE_MISMATCH)
        #expect(attempt("owner..name", "*") == IC_ERR_INVALID_ARGUMENT)
        #expect(String(cString: ic_error_message()).contains("empty key"))
        #expect(attempt("balance", "{") == IC_ERR_MALFORMED_ENCODING)
        #expect(attempt("balance", "dd") == IC_ERR_INVALID_ARGUMENT)
        #expect(ic_key_path_observation_remove(nil) == IC_ERR_INVALID_ARGUMENT)
        ic_intercept_quiesce()
        #expect(ict_recorder_count(recorder) == 0 && ict_recorder_releases(recorder) == 0)
        #expect(ic_intercept_original_class(account) == ic_object_get_class(account))  // nothing stayed
        ic_release(account)
        ict_recorder_destroy(recorder)
    }

    @Test("setters racing on four threads: every call delivered once, each old value the previous new one")
    func concurrentSetters() throws {
        let account = ict_account_new(0, nil)!
        let (observation, recorder) = try observe(account, "balance", "d", options: 0)
        ict_concurrent_double_sets(account, "balance", 4, 500, nil)
        #expect(ict_recorder_count(recorder) == 2000)
        #expect(ict_recorder_breaks(recorder) == 0)
        // Removal racing with setters.
        ict_concurrent_double_sets(account, "balance", 2, 200, observation)
        ic_intercept_quiesce()
        #expect(ict_recorder_releases(recorder) == 1)
        #expect(ict_recorder_breaks(recorder) == 0)
        ic_release(account)
        ict_recorder_destroy(recorder)
    }

    @Test("objects read through a weak property dying on several threads while the path moves (TSan)")
    func weakObjectsDyingConcurrently() throws {
        let account = ict_account_new(0, nil)!
        for (path, type) in [("manager.name", "*"), ("manager", "@")] {
            let (observation, recorder) = try observe(account, path, type)
            ict_concurrent_manager_churn(account, 4, 200, nil)
            #expect(readObject(account, "manager") == nil)  // every person died
            ict_concurrent_manager_churn(account, 2, 100, observation)  // removal racing
            ic_intercept_quiesce()
            #expect(ict_recorder_releases(recorder) == 1)
            ict_recorder_destroy(recorder)
        }
        #expect(ic_intercept_original_class(account) == ic_object_get_class(account))
        ic_release(account)
    }
}
