/**
 * Outgoing e-mail (password resets). The default sender writes the message to the log,
 * so the flow works offline and in development; another sender can be plugged in.
 */
export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface EmailSender {
  send(message: EmailMessage): Promise<void>;
}

export const logSender: EmailSender = {
  async send(message) {
    console.log(`[folio] email to ${message.to}: ${message.subject}\n${message.text}`);
  },
};
