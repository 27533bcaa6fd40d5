@_exported import RxCore
