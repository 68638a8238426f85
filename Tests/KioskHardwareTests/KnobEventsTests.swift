import Testing

@testable import KioskHardware

@Test func directionStepIsOneStrokePerDetent() {
    #expect(RotationDirection.clockwise.step == 1)
    #expect(RotationDirection.counterClockwise.step == -1)
}
