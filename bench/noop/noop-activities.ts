/** Activities that do nothing, for the engine-floor bench. */
export function noopActivities() {
  return {
    async noopStep(id: string): Promise<string> {
      return id;
    },
  };
}
