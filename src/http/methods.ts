/** Whether a request or route with this method writes: every method but GET and HEAD (which GET routes serve). */
export const isWrite = (method: string) => !/^(get|head)$/i.test(method);
