// How we dial: the frames one muxer pass has ready leave in one socket write (writeFramesTogether).
import { expect } from 'chai';
import { dial } from '../src/dial.ts';
import { amqpUrl, uniqueName } from './support.ts';

interface Socket {
  _write: (...args: unknown[]) => void;
  _writev: (...args: unknown[]) => void;
}

describe('broker: dialling RabbitMQ', () => {
  it('sends the frames of one pass (here 20 publishes) in one socket write', async () => {
    const model = await dial({ url: await amqpUrl() });
    try {
      const channel = await model.createConfirmChannel();
      const queue = uniqueName('frames');
      await channel.assertQueue(queue, { exclusive: true });
      const socket = (model as unknown as { connection: { stream: Socket } }).connection.stream;
      const writes: string[] = [];
      const [write, writev] = [socket._write, socket._writev];
      socket._write = function (...args) {
        writes.push('write');
        return write.apply(this, args);
      };
      socket._writev = function (...args) {
        writes.push(`writev of ${(args[0] as unknown[]).length}`);
        return writev.apply(this, args);
      };
      for (let i = 0; i < 20; i++) channel.sendToQueue(queue, Buffer.from(`{"n":${i}}`));
      await channel.waitForConfirms();
      expect(writes).to.deep.equal(['writev of 20']);
      await channel.close();
    } finally {
      await model.close();
    }
  });
});
