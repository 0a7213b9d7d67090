/** The error a promise is rejected with (a client call expected to fail), or a failure when it resolves. */
export async function rejection(promise: Promise<unknown>): Promise<any> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to be rejected');
}
