export default function Screen() {
  return (
    <section>
      <h1>Chat</h1>
    </section>
  );
}
