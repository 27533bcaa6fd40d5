// Metaclasses and class objects (SPEC §10.4): a class is an object whose class is its metaclass;
// class methods are the metaclass's methods.
import CInterception

extension RuntimeClass {
    /// The class of this class's class object: its metaclass, whose methods are the class
    /// methods (for a metaclass, the root metaclass).
    ///
    /// A metaclass is a ``RuntimeClass`` like any other, so what works on classes works on class
    /// methods through it: hook them (`Counter.metaclass.hookBefore("make:") { … }`, a class-wide
    /// hook on the metaclass), replace them (`Counter.metaclass.replaceMethod(…)`), list them
    /// (`Counter.metaclass.methods`), ask about them (`Counter.metaclass.instancesRespond(to:)`).
    /// Its ``superclass`` is the superclass's metaclass, and the root metaclass's is the root
    /// class, so class objects also answer the root's instance methods.
    public var metaclass: RuntimeClass { RuntimeClass(unchecked: ic_class_metaclass(pointer)) }

    /// Whether this class is a metaclass.
    public var isMetaclass: Bool { ic_class_is_metaclass(pointer) }

    /// The class as an object, the receiver of class methods. Class objects are immortal: the
    /// handle's retain and release do nothing to it. Its ``RuntimeObject/runtimeClass`` is this
    /// class (`+class` answers the class itself); its ``RuntimeObject/actualClass`` is
    /// ``metaclass``.
    public var asObject: RuntimeObject { RuntimeObject(retaining: ic_class_object(pointer)) }

    /// The class methods this class itself defines (its metaclass's own methods), in the order
    /// they were added.
    public var classMethods: [RuntimeMethod] { metaclass.methods }
}

extension RuntimeObject {
    /// The object as a class, if it is a class object (for example the `this` of a class
    /// method); `nil` for any other object.
    public var asClass: RuntimeClass? { ic_object_as_class(pointer).map(RuntimeClass.init(unchecked:)) }
}
