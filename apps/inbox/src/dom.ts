// htm's templates hand their event handlers no types: these say what a handler receives.

/** An event from the element that listens to it (`e.currentTarget.value`, `.checked`). */
export type EventOn<T extends EventTarget = HTMLInputElement, E extends Event = Event> = E & {
  currentTarget: T;
};

/** A form's submit. */
export type SubmitEvent = EventOn<HTMLFormElement, Event>;
