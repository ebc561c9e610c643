export default function Screen() {
  return (
    <section>
      <h1>Agents</h1>
    </section>
  );
}
